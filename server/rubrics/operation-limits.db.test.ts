import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { AppError } from "@/lib/errors";
import { createPaper } from "@/db/queries/papers";
import { softDeleteSubtreeStatement } from "@/db/queries/rubric-operations";
import { countNodeRows, getLiveNodeRows, getRubricByPaperId, insertNodeRows } from "@/db/queries/rubrics";
import { RUBRIC_LIMITS } from "@/lib/rubric/limits";
import { OperationError, type NewNode, type RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { exportRubricJson } from "@/server/papers/export";
import { applyRubricOperation } from "./apply-rubric-operation";
import { getRubricTree } from "./read-rubric";

/** A chain of `length` new nodes in pre-order, the first under `parentKey`. */
function chain(parentKey: string | null, length: number): NewNode[] {
  const nodes: NewNode[] = [];
  let parent = parentKey;
  for (let i = 0; i < length; i++) {
    const key = crypto.randomUUID();
    nodes.push({ key, parentKey: parent, position: "a0", nodeId: `n${i}`, requirements: `level ${i}`, weight: 1, taskCategory: null, finegrainedTaskCategory: null });
    parent = key;
  }
  return nodes;
}

describe.each(testDatabaseKinds())("rubric limits on operations on %s", (kind) => {
  let handle: DbHandle;
  let paperNo = 0;
  let paperId: string;
  let opNo = 0;
  let revision = 0;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });
  beforeEach(async () => {
    paperId = `limits-${++paperNo}`;
    revision = 0;
    await createPaper(handle.db, { id: paperId, title: "Limits", paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] }, null);
  });

  const apply = async (op: RubricOperation) => {
    const result = await applyRubricOperation(handle, { paperId, userId: null, request: { clientOpId: `op-${++opNo}`, baseRevision: revision, op } });
    revision = result.revision;
    return result;
  };
  const refusal = async (op: RubricOperation) => {
    const err = await apply(op).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OperationError);
    return err as OperationError;
  };
  const rubricId = async () => (await getRubricByPaperId(handle.db, paperId))!.id;
  const liveCount = async () => (await getLiveNodeRows(handle.db, await rubricId())).length;

  it("refuses a create that would make the rubric 65 levels deep, naming the limit, and changes nothing", async () => {
    const nodes = chain(null, RUBRIC_LIMITS.maxDepth);
    await apply({ kind: "create", nodes });
    const deepest = nodes.at(-1)!.key;

    const one = await refusal({ kind: "create", nodes: chain(deepest, 1) });
    expect(one.code).toBe("limit");
    expect(one.message).toBe("The rubric would be 65 levels deep; the limit is 64 levels");
    // A subtree is measured whole: two levels under level 63 is 65 too.
    const two = await refusal({ kind: "create", nodes: chain(nodes.at(-2)!.key, 2) });
    expect(two.message).toContain("the limit is 64 levels");
    // In one create from nothing as well.
    paperId = `limits-${++paperNo}`;
    revision = 0;
    await createPaper(handle.db, { id: paperId, title: "Limits", paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] }, null);
    expect((await refusal({ kind: "create", nodes: chain(null, 65) })).code).toBe("limit");
    expect(await getRubricByPaperId(handle.db, paperId).then((r) => (r ? countNodeRows(handle.db, r.id) : 0))).toBe(0);
  });

  it("refuses a move or a restore that would put a node deeper than the limit", async () => {
    const spine = chain(null, 60);
    await apply({ kind: "create", nodes: spine });
    // A branch of 5 levels under level 1: fine there, 65 deep under level 60.
    const branch = chain(spine[0].key, 5);
    await apply({ kind: "create", nodes: branch });
    const move = await refusal({ kind: "move", moves: [{ key: branch[0].key, parentKey: spine[59].key, position: "a1" }] });
    expect(move.code).toBe("limit");
    expect(move.message).toContain("65 levels deep");
    await apply({ kind: "move", moves: [{ key: branch[0].key, parentKey: spine[58].key, position: "a1" }] });

    // Deleted, then its old parent moves deeper: bringing it back would make 65 levels.
    const side = chain(spine[0].key, 5);
    await apply({ kind: "create", nodes: side });
    await apply({ kind: "delete", keys: [side[1].key] });
    await apply({ kind: "move", moves: [{ key: side[0].key, parentKey: spine[59].key, position: "a2" }] });
    const before = await liveCount();
    const restore = await refusal({ kind: "restore", keys: [side[1].key] });
    expect(restore.code).toBe("limit");
    expect(await liveCount()).toBe(before);
  });

  it("refuses a create that would take the rubric past 50,000 nodes, naming the limit", async () => {
    const [root] = chain(null, 1);
    await apply({ kind: "create", nodes: [root] });
    // A section with its leaves: one subtree in pre-order.
    const [section] = chain(root.key, 1);
    const leaves = chain(section.key, RUBRIC_LIMITS.maxNodes - 3).map((node) => ({ ...node, parentKey: section.key }));
    await apply({ kind: "create", nodes: [section, ...leaves] });
    await apply({ kind: "create", nodes: chain(root.key, 1) });
    expect(await liveCount()).toBe(RUBRIC_LIMITS.maxNodes);

    const err = await refusal({ kind: "create", nodes: chain(root.key, 1) });
    expect(err.code).toBe("limit");
    expect(err.message).toBe("The rubric would have 50001 nodes; the limit is 50000");
    expect(await liveCount()).toBe(RUBRIC_LIMITS.maxNodes);
  });

  it("reads a 3,000-deep chain stored before the limits (its export refused in words), and deletes a 2,000-node chain through the tree index", async () => {
    // Rows as an operation without limits left them (a rubric from before this check).
    const [root] = chain(null, 1);
    await apply({ kind: "create", nodes: [root] });
    const id = await rubricId();
    const deep = chain(root.key, 3000) as NodeRow[];
    await insertNodeRows(handle.db, id, deep);
    await handle.db.execute(sql`ANALYZE rubric_nodes`);

    const tree = await getRubricTree(handle.db, id);
    let depth = 0;
    for (let node = tree; node; node = node.sub_tasks[0]) depth++;
    expect(depth).toBe(3001);
    // Its export is refused in words (the file would be hundreds of megabytes, and no import takes it).
    const refused = await exportRubricJson(handle, paperId, { force: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).message).toBe("The rubric is 3001 levels deep; the limit is 64: move or delete nodes to export it");

    // The recursive member looks children up by (rubric_id, parent_key): the index, not a scan of
    // every rubric's nodes for each of the 2,000 levels.
    const plan = await handle.db.execute(sql`EXPLAIN ${softDeleteSubtreeStatement(id, deep[1000].key, 99)}`);
    const lines = (plan.rows as Record<string, string>[]).map((r) => Object.values(r)[0]);
    const union = lines.findIndex((line) => line.includes("Recursive Union"));
    const indent = (line: string) => line.length - line.trimStart().length;
    const end = lines.findIndex((line, i) => i > union && indent(line) <= indent(lines[union]));
    const recursive = lines.slice(union, end === -1 ? undefined : end).join("\n");
    expect(recursive).toContain("Index Scan using rubric_nodes_tree_idx");
    expect(recursive).not.toContain("Seq Scan");

    await apply({ kind: "delete", keys: [deep[1000].key] });
    expect(await liveCount()).toBe(1 + 1000);
  });
});
