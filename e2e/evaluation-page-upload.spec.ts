/**
 * Issue 21, bug 3: an evaluation is filled from its own page. Staff create an evaluation over the
 * API (a paper of the test's own with the demo rubric × 2 runs, a new agent: the demo paper's
 * leaderboard stays as it is), open its page, which no longer sends them to /evaluations, and
 * upload with the page's own upload (the new-evaluation dialog's): a run past the evaluation's 2 is
 * refused with where and why; run 1 is uploaded and its cell fills in; run 1 again is refused as
 * already uploaded, with what to do; then "Re-upload one run" sends run 1 again as a folder
 * (packed in the browser) with a file more, and the run's submission holds the new files.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { TestInfo } from "@playwright/test";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { REPO_ROOT } from "./support/files";
import { STAFF } from "./support/users";
import { screenshots } from "./support/screenshots";

test.describe.configure({ timeout: 120_000 });

const DEMO_SUBMISSION = path.join(REPO_ROOT, "rubrics", "demo", "submission");
const MARKER = "reupload-marker.txt";

/** A .tar.gz holding `<paper>/<run>/submission/` (the demo submission) for each run. */
function runsArchive(testInfo: TestInfo, name: string, paperId: string, runs: number[]): string {
  const root = testInfo.outputPath(`${name}-tree`);
  for (const run of runs)
    fs.cpSync(DEMO_SUBMISSION, path.join(root, paperId, String(run), "submission"), { recursive: true });
  const archive = testInfo.outputPath(`${name}.tar.gz`);
  execFileSync("tar", ["-czf", archive, "-C", root, paperId]);
  return archive;
}

test("staff upload into an existing evaluation from its page and re-upload one run's submission", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const paperId = `e2e-page-upload-${Date.now()}`;
  await paperWithDemoRubric(page, paperId);
  const created = await page.request.post("/api/evaluations", {
    data: {
      name: "E2E page upload",
      agent: `E2E Page Upload ${paperId}`,
      split: "custom",
      paperIds: [paperId],
      runs: 2,
      policies: {
        reproduction_failed: "zero",
        reproduction_timed_out: "exclude",
        judge_invalid_leaves: { retry: 1 },
        blacklisted: "zero",
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const evaluationId = ((await created.json()) as { evaluation: { id: string } }).evaluation.id;

  await page.goto(`/evaluations/${evaluationId}`);
  await expect(page.getByTestId("evaluation-title")).toHaveText("E2E page upload");
  const empty = page.getByTestId("evaluation-empty");
  await expect(empty).toContainText("Upload submissions");
  await expect(empty).not.toContainText("from Evaluations");
  const cell = (run: number) => page.locator(`[data-testid="matrix-cell"][data-paper="${paperId}"][data-run="${run}"]`);
  await expect(cell(1)).toHaveAttribute("data-stage", "empty");
  await screenshots(page, testInfo, "empty", { fullPage: true });

  // The page's upload: a run past the evaluation's 2 is refused, saying where and why; nothing stored.
  await page.getByTestId("evaluation-upload-open").click();
  const dialog = page.getByTestId("evaluation-upload-dialog");
  const upload = dialog.getByTestId("bulk-upload-form");
  await upload.getByLabel("Submissions archive").setInputFiles(runsArchive(testInfo, "run-3", paperId, [3]));
  await upload.getByTestId("bulk-upload").click();
  const error = upload.getByTestId("bulk-upload-error");
  await expect(error).toContainText(`${paperId}/3/submission/`);
  await expect(error).toContainText("has 2 run(s)");
  await screenshots(page, testInfo, "refused", { fullPage: true });

  // Run 1: accepted, the dialog closes and the cell leaves "empty" without a reload.
  await upload.getByLabel("Submissions archive").setInputFiles(runsArchive(testInfo, "run-1", paperId, [1]));
  await upload.getByTestId("bulk-upload").click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  await expect(cell(1)).not.toHaveAttribute("data-stage", "empty");
  await expect(page.getByTestId("evaluation-empty")).toBeHidden();
  const matrix = (await (await page.request.get(`/api/evaluations/${evaluationId}/matrix`)).json()) as {
    cells: { run: number; submissionId: string | null }[];
  };
  const submissionId = matrix.cells.find((c) => c.run === 1)?.submissionId;
  expect(submissionId).toBeTruthy();
  const read = async () =>
    (
      (await (await page.request.get(`/api/submissions/${submissionId}`)).json()) as {
        submission: { archive: { fileCount: number; sha256: string }; files: unknown };
      }
    ).submission;
  const before = await read();

  // Run 1 again through the whole-evaluation upload: refused as already uploaded, with what to do.
  await page.getByTestId("evaluation-upload-open").click();
  await upload.getByLabel("Submissions archive").setInputFiles(runsArchive(testInfo, "run-1-again", paperId, [1]));
  await upload.getByTestId("bulk-upload").click();
  await expect(error).toContainText(`${paperId}/1/submission/`);
  await expect(error).toContainText("already has an archive");
  await expect(error).toContainText("Replace runs already uploaded");
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await expect(dialog).toBeHidden();

  // Re-upload run 1 on its own, as a folder packed in the browser, with one file more.
  const folder = testInfo.outputPath("run-1-folder");
  fs.cpSync(DEMO_SUBMISSION, folder, { recursive: true });
  fs.writeFileSync(path.join(folder, MARKER), "re-uploaded\n");
  await page.getByTestId("reupload-paper").selectOption(paperId);
  await page.getByTestId("reupload-run").selectOption("1");
  await page.getByTestId("reupload-open").click();
  const cellDialog = page.getByTestId("cell-upload-dialog");
  await expect(cellDialog).toContainText(`Re-upload run 1 of ${paperId}`);
  await cellDialog.getByLabel("Submission folder").setInputFiles(folder);
  await expect(cellDialog).toContainText("run-1-folder");
  await screenshots(page, testInfo, "reupload", { fullPage: true });
  await cellDialog.getByTestId("bulk-upload").click();
  await expect(cellDialog).toBeHidden({ timeout: 60_000 });
  await expect(page.getByText(`Run 1 of ${paperId} re-uploaded`)).toBeVisible();

  // The same submission (the cell's), now holding the re-uploaded files.
  const after = await read();
  expect(after.archive.fileCount).toBe(before.archive.fileCount + 1);
  expect(after.archive.sha256).not.toBe(before.archive.sha256);
  expect(JSON.stringify(after.files)).toContain(MARKER);
  const again = (await (await page.request.get(`/api/evaluations/${evaluationId}/matrix`)).json()) as {
    cells: { run: number; submissionId: string | null }[];
  };
  expect(again.cells.find((c) => c.run === 1)?.submissionId).toBe(submissionId);
  expect(again.cells.find((c) => c.run === 2)?.submissionId).toBeNull();
});
