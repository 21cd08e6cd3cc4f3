import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getNodeHistory } from "@/db/queries/rubric-history";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { createUser } from "@/db/queries/users";
import { describeOperationFor } from "@/lib/rubric/describe-operation";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { getOperationsSince } from "@/server/live/rubric-feed";
import { exportRubricJson } from "@/server/papers/export";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { applyRubricOperation } from "./apply-rubric-operation";
import { getLiveRubricRows } from "./read-rubric";
import { listRubricRevisions } from "./revision-log";
import { getLiveRubricWithLint } from "./rubric-lint";

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");

describe.each(testDatabaseKinds())("lint dismissals on %s", (kind) => {
  let handle: DbHandle;
  let paperNo = 0;
  let paperId: string;
  let rubricId: string;
  let rows: NodeRow[];
  let userId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });
  beforeEach(async () => {
    paperId = `lint-${++paperNo}`;
    const { files } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, paperId, userId: null, source: "t" });
    rubricId = (await getRubricByPaperId(handle.db, paperId))!.id;
    rows = await getLiveNodeRows(handle.db, rubricId);
    userId = (await createUser(handle.db, { email: `dana-${paperId}@example.org`, name: "Dana" })).id;
  });

  let opNo = 0;
  const apply = async (op: RubricOperation) => {
    const revision = (await getRubricByPaperId(handle.db, paperId))!.revision;
    return applyRubricOperation(handle, { paperId, userId, request: { clientOpId: `lint-op-${++opNo}`, baseRevision: revision, op } });
  };
  const lint = async () => (await getLiveRubricWithLint(handle, paperId)).lint!;
  const tinyKeys = async () => (await lint()).findings.filter((f) => f.code === "tiny_share").map((f) => f.key);

  /** Two leaves made light beside their siblings: two tiny_share findings. */
  async function twoLightLeaves(): Promise<[NodeRow, NodeRow]> {
    const parent = rows.find((p) => rows.filter((r) => r.parentKey === p.key && !rows.some((c) => c.parentKey === r.key)).length >= 3)!;
    const [a, b] = rows.filter((r) => r.parentKey === parent.key);
    await apply({ kind: "update", key: a.key, fields: { weight: 0.001 } });
    await apply({ kind: "update", key: b.key, fields: { weight: 0.001 } });
    return [a, b];
  }

  it("a node's dismissal persists with its reason and author, leaves the count, and is in the history, the feed and the node's history", async () => {
    const before = await lint();
    const [a, b] = await twoLightLeaves();
    expect(await tinyKeys()).toEqual([a.key, b.key]);
    const exportedBefore = await exportRubricJson(handle, paperId, { force: true });

    const result = await apply({ kind: "dismiss", code: "tiny_share", key: a.key, reason: "Light on purpose" });
    expect(result.inverse).toEqual({ kind: "undismiss", code: "tiny_share", key: a.key });

    // Read back fresh from the database, as a reload or another editor does.
    const live = await getLiveRubricRows(handle, paperId);
    expect(live.dismissals).toEqual([{ code: "tiny_share", key: a.key, reason: "Light on purpose", revision: result.revision, by: "Dana" }]);
    const after = await lint();
    expect(after.findings.map((f) => f.key)).not.toContain(a.key);
    expect(await tinyKeys()).toEqual([b.key]);
    expect(after.dismissedCount).toBe(1);
    expect(after.findings.length).toBe(before.findings.length + 1);

    const [latest] = await listRubricRevisions(handle.db, rubricId, { limit: 1 });
    expect(latest).toMatchObject({ revision: result.revision, kind: "dismiss", user: { name: "Dana" } });
    expect(latest.summary).toMatch(/^Dismissed the “Weight far below its siblings” warning on “\S/);
    const feed = await getOperationsSince(handle.db, rubricId, result.revision - 1);
    expect(feed.map((o) => o.op)).toEqual([{ kind: "dismiss", code: "tiny_share", key: a.key, reason: "Light on purpose" }]);
    const history = await getNodeHistory(handle.db, rubricId, a.key);
    expect(describeOperationFor(history[0].op, a.key)).toEqual(["dismissed its “Weight far below its siblings” warning: Light on purpose"]);

    // A dismissal is no change to the rubric file.
    expect(await exportRubricJson(handle, paperId, { force: true })).toEqual(exportedBefore);

    // Undo (the inverse) brings the finding back, and is in the log too.
    await apply(result.inverse);
    expect((await getLiveRubricRows(handle, paperId)).dismissals).toEqual([]);
    expect(await tinyKeys()).toEqual([a.key, b.key]);
    const [undone] = await listRubricRevisions(handle.db, rubricId, { limit: 1 });
    expect(undone.kind).toBe("undismiss");
  });

  it("a rule's dismissal hides every finding of it, and a new reason replaces the old one", async () => {
    await twoLightLeaves();
    await apply({ kind: "dismiss", code: "tiny_share", key: null, reason: "Weights from the paper" });
    expect(await tinyKeys()).toEqual([]);
    expect((await lint()).dismissedCount).toBe(2);
    const second = await apply({ kind: "dismiss", code: "tiny_share", key: null, reason: "Checked with the authors" });
    expect(second.inverse).toEqual({ kind: "dismiss", code: "tiny_share", key: null, reason: "Weights from the paper" });
    expect((await getLiveRubricRows(handle, paperId)).dismissals.map((d) => [d.key, d.reason])).toEqual([[null, "Checked with the authors"]]);
    const [latest] = await listRubricRevisions(handle.db, rubricId, { limit: 1 });
    expect(latest.summary).toBe("Dismissed every “Weight far below its siblings” warning");
  });

  it("refuses a dismissal on a deleted node", async () => {
    const [a] = await twoLightLeaves();
    await apply({ kind: "delete", keys: [a.key] });
    await expect(apply({ kind: "dismiss", code: "tiny_share", key: a.key, reason: "x" })).rejects.toMatchObject({ code: "node_deleted" });
    expect((await getLiveRubricRows(handle, paperId)).dismissals).toEqual([]);
  });
});
