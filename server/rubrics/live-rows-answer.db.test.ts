import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { readPaperFolder } from "@/server/papers/folder-reader";
import { importPaperFolder } from "@/server/papers/import";
import { applyRubricOperation } from "./apply-rubric-operation";
import { liveRowsAnswer } from "./live-rows-answer";
import { getLiveRubricRows } from "./read-rubric";

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");

describe.each(testDatabaseKinds())("the editor's rows answer on %s", (kind) => {
  let handle: DbHandle;
  const paperId = "live-rows-answer";

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const { files } = readPaperFolder(DEMO_DIR);
    await importPaperFolder(handle, { files, paperId, userId: null, source: "t" });
  });
  afterAll(async () => {
    await handle?.close();
  });

  const read = async (res: Response) => {
    expect(res.headers.get("content-type")).toBe("application/json");
    return JSON.parse(await res.text());
  };
  const expected = async (canEdit: boolean) => {
    const { rubricId, revision, nodes, dismissals } = await getLiveRubricRows(handle, paperId);
    return JSON.parse(JSON.stringify({ rubricId, revision, canEdit, nodes, dismissals }));
  };

  it("answers the live rows, kept or read afresh, and follows every revision", async () => {
    expect(await read(await liveRowsAnswer(handle, paperId, { canEdit: true }))).toEqual(await expected(true));
    // Asked again at the same revision: the kept answer, the same rows.
    expect(await read(await liveRowsAnswer(handle, paperId, { canEdit: true }))).toEqual(await expected(true));
    // A reader who may not edit is told so, from the same rows.
    expect(await read(await liveRowsAnswer(handle, paperId, { canEdit: false }))).toEqual(
      await expected(false),
    );

    // A change: the next answer has it (the kept one was of the previous revision).
    const { nodes } = await getLiveRubricRows(handle, paperId);
    const leaf = nodes.find((n) => !nodes.some((c) => c.parentKey === n.key))!;
    const revision = (await getRubricByPaperId(handle.db, paperId))!.revision;
    await applyRubricOperation(handle, {
      paperId,
      userId: null,
      request: { clientOpId: "live-rows-1", baseRevision: revision, op: { kind: "update", key: leaf.key, fields: { weight: 42 } } },
    });
    const after = await read(await liveRowsAnswer(handle, paperId, { canEdit: true }));
    expect(after.revision).toBe(revision + 1);
    expect(after.nodes.find((n: { key: string }) => n.key === leaf.key).weight).toBe(42);
    expect(after).toEqual(await expected(true));
  });

  it("answers an empty rubric for a paper without one", async () => {
    const res = await liveRowsAnswer(handle, "no-such-paper", { canEdit: false });
    expect(await read(res)).toEqual({ rubricId: null, revision: 0, canEdit: false, nodes: [], dismissals: [] });
  });
});
