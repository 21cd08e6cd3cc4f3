import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { exportRubricJson } from "@/server/papers/export";
import { importPaperFolder, importRubricIntoPaper } from "@/server/papers/import";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { AppError } from "@/lib/errors";
import { OperationError, operationSchema, type RubricOperation } from "@/lib/rubric/operations";
import { compareSiblings, type NodeRow } from "@/lib/rubric/tree-rows";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { getOperationsSince } from "@/server/live/rubric-feed";
import { createPaper } from "@/db/queries/papers";
import { getNodeHistory } from "@/db/queries/rubric-history";
import { getRubricReview } from "@/db/queries/rubric-review";
import { createUser } from "@/db/queries/users";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { applyRubricOperation } from "./apply-rubric-operation";
import { changeRubricStatus } from "./change-rubric-status";
import { restoreRubricVersion } from "./restore-rubric";
import { saveRubricVersion } from "./save-rubric-version";

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const DEMO_RUBRIC = fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8");

describe.each(testDatabaseKinds())("rubric operations on %s", (kind) => {
  let handle: DbHandle;
  let paperNo = 0;
  let paperId: string;
  let rows: NodeRow[];
  let rubricId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });
  // Each test gets its own copy of the demo paper.
  beforeEach(async () => {
    paperId = `ops-${++paperNo}`;
    const { files } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, paperId, userId: null, source: "t" });
    rubricId = (await getRubricByPaperId(handle.db, paperId))!.id;
    rows = await getLiveNodeRows(handle.db, rubricId);
  });

  let opNo = 0;
  const apply = (op: RubricOperation) =>
    applyRubricOperation(handle, { paperId, userId: null, request: { clientOpId: `op-${++opNo}`, baseRevision: 1, op } });
  const exported = () => exportRubricJson(handle, paperId, { force: true });
  const revision = async () => (await getRubricByPaperId(handle.db, paperId))!.revision;
  const root = () => rows.find((r) => r.parentKey === null)!;
  const childrenOf = (key: string) => rows.filter((r) => r.parentKey === key).sort(compareSiblings);
  const refusal = async (op: RubricOperation) => {
    const err = await apply(op).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OperationError);
    return err as OperationError;
  };

  it("applies create, update, move, delete and restore, each undone by its inverse", async () => {
    const [a, b] = childrenOf(root().key);
    const key = crypto.randomUUID();
    const steps: RubricOperation[] = [
      {
        kind: "create",
        nodes: [{ key, parentKey: a.key, position: "a0", nodeId: key, requirements: "New leaf", weight: 2, taskCategory: "Code Development", finegrainedTaskCategory: null }],
      },
      { kind: "update", key: b.key, fields: { requirements: "Changed text é", weight: 4.5 } },
      { kind: "move", moves: [{ key: b.key, parentKey: a.key, position: "Zz" }] },
      { kind: "delete", keys: [a.key] },
    ];
    const before: string[] = [];
    const inverses: RubricOperation[] = [];
    for (const step of steps) {
      before.push(await exported());
      const result = await apply(step);
      expect(result.revision).toBe((await revision()));
      inverses.push(result.inverse);
    }
    const deletedTree = await exported();
    expect(deletedTree).not.toContain(a.requirements);
    // Undo everything in reverse order: each inverse restores the bytes from before its step.
    for (let i = steps.length - 1; i >= 0; i--) {
      await apply(inverses[i]);
      expect(await exported()).toBe(before[i]);
    }
    expect(await exported()).toBe(DEMO_RUBRIC);
    expect(await revision()).toBe(1 + 2 * steps.length);
  });

  it("refuses a move into the node's own subtree, and one under a deleted node, changing nothing", async () => {
    const [a, b] = childrenOf(root().key);
    const grandchild = childrenOf(a.key)[0];
    expect((await refusal({ kind: "move", moves: [{ key: a.key, parentKey: grandchild.key, position: "a0" }] })).code).toBe("cycle");
    expect((await refusal({ kind: "move", moves: [{ key: a.key, parentKey: a.key, position: "a0" }] })).code).toBe("cycle");
    // A multi-move whose second step forms a cycle only after the first.
    const c = childrenOf(root().key)[2];
    const multi = await refusal({
      kind: "move",
      moves: [
        { key: b.key, parentKey: c.key, position: "a0" },
        { key: c.key, parentKey: b.key, position: "a0" },
      ],
    });
    expect(multi.code).toBe("cycle");
    await apply({ kind: "delete", keys: [b.key] });
    const rev = await revision();
    const underDeleted = await refusal({ kind: "move", moves: [{ key: c.key, parentKey: b.key, position: "a0" }] });
    expect(underDeleted.code).toBe("node_deleted");
    expect(underDeleted.message).toMatch(/restore it first/);
    expect(await revision()).toBe(rev);
    expect((await refusal({ kind: "delete", keys: [root().key] })).code).toBe("root");
    expect((await refusal({ kind: "update", key: crypto.randomUUID(), fields: { weight: 1 } })).code).toBe("node_not_found");
    const dup = await refusal({
      kind: "create",
      nodes: [{ key: a.key, parentKey: root().key, position: "a0", nodeId: "x", requirements: "", weight: 1, taskCategory: null, finegrainedTaskCategory: null }],
    });
    expect(dup.code).toBe("duplicate_key");
    expect(await revision()).toBe(rev);
  });

  it("answers a create with a key another paper uses exactly as it answers a fresh key (no oracle)", async () => {
    // Another paper's node key, as an attacker might guess or have seen.
    const otherPaper = `${paperId}-other`;
    const { files } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, paperId: otherPaper, userId: null, source: "t" });
    const otherRows = await getLiveNodeRows(handle.db, (await getRubricByPaperId(handle.db, otherPaper))!.id);
    const foreign = otherRows.find((r) => r.parentKey !== null)!;
    const node = (key: string) => ({ key, parentKey: root().key, position: "a0", nodeId: "x", requirements: "Mine", weight: 1, taskCategory: null, finegrainedTaskCategory: null });

    const fresh = await apply({ kind: "create", nodes: [node(crypto.randomUUID())] });
    const reused = await apply({ kind: "create", nodes: [node(foreign.key)] });
    expect(reused.revision).toBe(fresh.revision + 1);
    expect(reused.inverse).toEqual({ kind: "delete", keys: [foreign.key] });
    // Each paper keeps its own node under that key.
    expect((await getLiveNodeRows(handle.db, rubricId)).find((r) => r.key === foreign.key)?.requirements).toBe("Mine");
    const otherAfter = await getLiveNodeRows(handle.db, (await getRubricByPaperId(handle.db, otherPaper))!.id);
    expect(otherAfter.find((r) => r.key === foreign.key)).toEqual(foreign);
    // Edits and deletes of that key touch this paper's node only.
    await apply({ kind: "update", key: foreign.key, fields: { requirements: "Mine, changed" } });
    await apply({ kind: "delete", keys: [foreign.key] });
    const otherFinal = await getLiveNodeRows(handle.db, (await getRubricByPaperId(handle.db, otherPaper))!.id);
    expect(otherFinal.find((r) => r.key === foreign.key)).toEqual(foreign);
  });

  it("merges two people's edits of one requirement three-way, and logs the merged text", async () => {
    const [a] = childrenOf(root().key);
    const base = a.requirements;
    // Both editors started from `base`; Bob's change lands first.
    await apply({ kind: "update", key: a.key, fields: { requirements: `${base} (Bob)` }, base: { requirements: base } });
    const alice = await apply({ kind: "update", key: a.key, fields: { requirements: `Alice: ${base}` }, base: { requirements: base } });
    expect(alice.merged).toBe(true);
    const merged = `Alice: ${base} (Bob)`;
    expect((await getLiveNodeRows(handle.db, rubricId)).find((r) => r.key === a.key)?.requirements).toBe(merged);
    // Undo restores Bob's text; the log holds the text as applied, for followers.
    expect(alice.inverse).toEqual({ kind: "update", key: a.key, fields: { requirements: `${base} (Bob)` } });
    const ops = await getOperationsSince(handle.db, rubricId, alice.revision - 1);
    expect(ops[0].op).toEqual({ kind: "update", key: a.key, fields: { requirements: merged } });
    // Without a base, the last writer wins.
    await apply({ kind: "update", key: a.key, fields: { requirements: "Plain" } });
    expect((await getLiveNodeRows(handle.db, rubricId)).find((r) => r.key === a.key)?.requirements).toBe("Plain");
  });

  it("keeps each node's history: the operations that name it, newest first", async () => {
    const [a, b] = childrenOf(root().key);
    await apply({ kind: "update", key: a.key, fields: { weight: 4 } });
    await apply({ kind: "update", key: b.key, fields: { weight: 2 } });
    await apply({ kind: "move", moves: [{ key: b.key, parentKey: a.key, position: "a0" }] });
    const history = await getNodeHistory(handle.db, rubricId, a.key);
    expect(history.map((h) => h.kind)).toEqual(["move", "update"]);
    expect(history[1].op).toEqual({ kind: "update", key: a.key, fields: { weight: 4 } });
    expect((await getNodeHistory(handle.db, rubricId, b.key)).map((h) => h.kind)).toEqual(["move", "update"]);
    expect(await getNodeHistory(handle.db, rubricId, crypto.randomUUID())).toEqual([]);
  });

  it("signs off a revision as a named version, and a later change returns the rubric to draft", async () => {
    const user = await createUser(handle.db, { email: `reviewer-${paperId}@example.org`, name: "Rita" });
    const rev = await revision();
    await expect(changeRubricStatus(handle, { paperId, action: "sign_off", revision: rev - 1, userId: user.id, userLabel: "Rita" })).rejects.toThrow(
      /changed since you looked/,
    );
    await changeRubricStatus(handle, { paperId, action: "request_review", revision: rev, userId: user.id, userLabel: "Rita" });
    const signed = await changeRubricStatus(handle, { paperId, action: "sign_off", revision: rev, userId: user.id, userLabel: "Rita" });
    expect(signed.status).toBe("signed_off");
    expect(signed.history[0]).toMatchObject({ status: "signed_off", revision: rev, user: { name: "Rita" } });
    expect(signed.history[0].versionId).toBeTruthy();

    const [a] = childrenOf(root().key);
    await apply({ kind: "update", key: a.key, fields: { weight: 8 } });
    const after = await getRubricReview(handle.db, rubricId);
    expect(after.status).toBe("draft");
    expect(after.history.map((h) => h.status)).toEqual(["draft", "signed_off", "in_review"]);
    expect(after.history[0]).toMatchObject({ user: null, reason: `Changed after sign-off (revision ${rev + 1})` });
  });

  it("applies a retried operation once", async () => {
    const [a] = childrenOf(root().key);
    const request = { clientOpId: "retry-me", baseRevision: 1, op: { kind: "update", key: a.key, fields: { weight: 9 } } as RubricOperation };
    const first = await applyRubricOperation(handle, { paperId, userId: null, request });
    const second = await applyRubricOperation(handle, { paperId, userId: null, request });
    expect(second).toEqual(first);
    expect(await revision()).toBe(2);
  });

  it("refuses a used client op id with a different operation (409), and applies nothing", async () => {
    const [a, b] = childrenOf(root().key);
    const first = { clientOpId: "used-once", baseRevision: 1, op: { kind: "update", key: a.key, fields: { weight: 9 } } as RubricOperation };
    await applyRubricOperation(handle, { paperId, userId: null, request: first });
    const before = await exported();
    for (const op of [
      { kind: "update", key: a.key, fields: { weight: 3 } },
      { kind: "update", key: b.key, fields: { weight: 9 } },
      { kind: "delete", keys: [b.key] },
    ] as RubricOperation[]) {
      const err = await applyRubricOperation(handle, { paperId, userId: null, request: { ...first, op } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "conflict", status: 409, details: [{ path: "clientOpId" }] });
      expect((err as AppError).message).toMatch(/^clientOpId "used-once" was already used for a different operation \(revision 2\)/);
    }
    expect(await exported()).toBe(before);
    expect(await revision()).toBe(2);
    // The same operation again is still a retry, answered as the first time.
    expect((await applyRubricOperation(handle, { paperId, userId: null, request: first })).revision).toBe(2);
  });

  it("refuses a base revision ahead of the rubric's (409), and applies nothing", async () => {
    const [a] = childrenOf(root().key);
    const before = await exported();
    const request = { clientOpId: "from-the-future", baseRevision: 7, op: { kind: "update", key: a.key, fields: { weight: 9 } } as RubricOperation };
    const err = await applyRubricOperation(handle, { paperId, userId: null, request }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "conflict", status: 409, message: "baseRevision is 7, ahead of the rubric's revision 1: reload the rubric" });
    expect(await exported()).toBe(before);
    expect(await revision()).toBe(1);
    // At the rubric's revision it applies.
    expect((await applyRubricOperation(handle, { paperId, userId: null, request: { ...request, baseRevision: 1 } })).revision).toBe(2);
  });

  it("restores only what a delete removed, not what was deleted before it", async () => {
    const [a] = childrenOf(root().key);
    const [inner] = childrenOf(a.key);
    await apply({ kind: "delete", keys: [inner.key] });
    const withoutInner = await exported();
    const { inverse } = await apply({ kind: "delete", keys: [a.key] });
    expect(inverse).toEqual({ kind: "restore", keys: [a.key] });
    await apply(inverse);
    expect(await exported()).toBe(withoutInner);
  });

  it("a batch that deletes one node twice answers an inverse the API accepts, and it undoes the batch", async () => {
    const [a] = childrenOf(root().key);
    const before = await exported();
    const { inverse } = await apply({ kind: "batch", ops: [{ kind: "delete", keys: [a.key] }, { kind: "delete", keys: [a.key] }] });
    expect(operationSchema.safeParse(inverse).success).toBe(true);
    expect(inverse).toEqual({ kind: "batch", ops: [{ kind: "restore", keys: [a.key] }] });
    await apply(inverse);
    expect(await exported()).toBe(before);
  });

  it("undoes and redoes a batch that deletes a node, then its ancestor", async () => {
    const [a] = childrenOf(root().key);
    const [inner] = childrenOf(a.key);
    const before = await exported();
    const { inverse } = await apply({
      kind: "batch",
      ops: [
        { kind: "delete", keys: [inner.key] },
        { kind: "delete", keys: [a.key] },
      ],
    });
    const afterDelete = await exported();
    // Restoring the ancestor brings back what the batch removed beneath it, the inner node too.
    const undone = await apply(inverse);
    expect(await exported()).toBe(before);
    await apply(undone.inverse);
    expect(await exported()).toBe(afterDelete);
  });

  it("moves a subtree by touching one row", async () => {
    const [a, b] = childrenOf(root().key);
    const versions = async () =>
      new Map(
        (await handle.db.execute(sql`SELECT key::text AS key, xmin::text AS xmin FROM rubric_nodes WHERE rubric_id = ${rubricId}`)).rows.map(
          (r) => [(r as { key: string }).key, (r as { xmin: string }).xmin],
        ),
      );
    const before = await versions();
    await apply({ kind: "move", moves: [{ key: a.key, parentKey: b.key, position: "a0" }] });
    const after = await versions();
    const touched = [...after].filter(([key, xmin]) => before.get(key) !== xmin).map(([key]) => key);
    expect(touched).toEqual([a.key]);
  });

  it("saves a version, restores it as one undoable operation, also across a re-import", async () => {
    const version = await saveRubricVersion(handle, { paperId, name: "v1", userId: null });
    expect(version).toMatchObject({ name: "v1", revision: 1 });
    const [a, b] = childrenOf(root().key);
    await apply({ kind: "update", key: a.key, fields: { requirements: "edited" } });
    await apply({ kind: "move", moves: [{ key: childrenOf(b.key)[0].key, parentKey: a.key, position: "a0" }] });
    await apply({ kind: "delete", keys: [childrenOf(root().key)[2].key] });
    const key = crypto.randomUUID();
    await apply({
      kind: "create",
      nodes: [{ key, parentKey: root().key, position: "zz", nodeId: key, requirements: "extra", weight: 1, taskCategory: null, finegrainedTaskCategory: null }],
    });
    const edited = await exported();

    const restored = await restoreRubricVersion(handle, { paperId, versionId: version.id, userId: null });
    expect(await exported()).toBe(DEMO_RUBRIC);
    await apply(restored.inverse);
    expect(await exported()).toBe(edited);

    // A re-import replaces every key; the version still restores (matched onto the new root).
    const changed = JSON.parse(DEMO_RUBRIC);
    changed.sub_tasks.reverse();
    await importRubricIntoPaper(handle, { paperId, rubricText: JSON.stringify(changed), userId: null, source: "t" });
    await restoreRubricVersion(handle, { paperId, versionId: version.id, userId: null });
    expect(await exported()).toBe(DEMO_RUBRIC);
  });

  it("builds a rubric from nothing: a create without a parent makes the root of an empty rubric only", async () => {
    const rootKey = crypto.randomUUID();
    const node = { nodeId: rootKey, requirements: "Root", weight: 1, taskCategory: null, finegrainedTaskCategory: null };
    const refused = await refusal({ kind: "create", nodes: [{ ...node, key: rootKey, parentKey: null, position: "a0" }] });
    expect(refused.code).toBe("root");
    // A paper whose rubric has no nodes yet.
    paperId = `empty-${kind}`;
    await createPaper(handle.db, { id: paperId, title: "Empty", paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] }, null);
    // The editor of a paper without a rubric has seen revision 0.
    const op: RubricOperation = { kind: "create", nodes: [{ ...node, key: rootKey, parentKey: null, position: "a0" }] };
    await applyRubricOperation(handle, { paperId, userId: null, request: { clientOpId: `op-${++opNo}`, baseRevision: 0, op } });
    expect(JSON.parse(await exported())).toMatchObject({ id: rootKey, requirements: "Root", sub_tasks: [] });
  });
});
