import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { getRubricReview } from "@/db/queries/rubric-review";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { createUser } from "@/db/queries/users";
import { changeRubricStatus } from "@/server/rubrics/change-rubric-status";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { readPaperFolder } from "./folder-reader";
import { importPaperFolder, importRubricIntoPaper } from "./import";
import { readRubricUpload } from "./upload";

const DEMO_DIR = path.join(process.cwd(), "rubrics", "demo");
const DEMO_RUBRIC = fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8");

/** The demo rubric with its first top-level weight changed, so a re-import is a real change. */
function editedRubric(weight: number): string {
  const tree = JSON.parse(DEMO_RUBRIC);
  tree.sub_tasks[0].weight = weight;
  return JSON.stringify(tree, null, 4);
}

// A sign-off is of one revision: whatever replaces the tree after it (the CLI's re-import, the
// editor's upload) must make the rubric a draft again in the same transaction.
describe.each(testDatabaseKinds())("a rubric replaced after sign-off on %s", (kind) => {
  let handle: DbHandle;
  let reviewerId: string;
  let paperNo = 0;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    reviewerId = (await createUser(handle.db, { email: "reviewer@example.org", name: "Rita" })).id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** A fresh demo paper whose rubric is signed off at its current revision. */
  async function signedOffPaper(): Promise<{ paperId: string; rubricId: string; revision: number }> {
    const paperId = `signed-${kind}-${++paperNo}`;
    await importPaperFolder(handle, { files: readPaperFolder(DEMO_DIR).files, paperId, userId: null, source: "t" });
    const { id: rubricId, revision } = (await getRubricByPaperId(handle.db, paperId))!;
    const signed = await changeRubricStatus(handle, {
      paperId,
      action: "sign_off",
      revision,
      userId: reviewerId,
      userLabel: "Rita",
    });
    expect(signed.status).toBe("signed_off");
    return { paperId, rubricId, revision };
  }

  async function expectBackToDraft(rubricId: string, revision: number) {
    const review = await getRubricReview(handle.db, rubricId);
    expect(review).toMatchObject({ status: "draft", revision });
    expect(review.history.map((h) => h.status)).toEqual(["draft", "signed_off"]);
    expect(review.history[0]).toMatchObject({
      revision,
      user: null,
      reason: `Changed after sign-off (revision ${revision})`,
    });
  }

  it("a re-import of the rubric (the CLI's `rubric import`) returns it to draft", async () => {
    const { paperId, rubricId, revision } = await signedOffPaper();
    const result = await importRubricIntoPaper(handle, {
      paperId,
      rubricText: editedRubric(5),
      userId: null,
      source: "cli",
    });
    expect(result.revision).toBe(revision + 1);
    await expectBackToDraft(rubricId, revision + 1);
  });

  it("a re-import of the paper folder returns it to draft", async () => {
    const { paperId, rubricId, revision } = await signedOffPaper();
    await importPaperFolder(handle, { files: { rubric: editedRubric(6) }, paperId, userId: null, source: "cli" });
    await expectBackToDraft(rubricId, revision + 1);
  });

  it("an uploaded rubric file (the editor's multipart upload) returns it to draft", async () => {
    const { paperId, rubricId, revision } = await signedOffPaper();
    const form = new FormData();
    form.set("rubric.json", new File([editedRubric(7)], "rubric.json", { type: "application/json" }));
    const upload = await readRubricUpload(new Request("http://127.0.0.1/upload", { method: "PUT", body: form }));
    await importPaperFolder(handle, {
      files: upload.files,
      paperId,
      userId: reviewerId,
      source: "upload:reviewer@example.org",
    });
    await expectBackToDraft(rubricId, revision + 1);
  });
});
