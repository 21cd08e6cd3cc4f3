/**
 * Evaluations (issue 14): staff create an evaluation from the form on /evaluations and fill it by
 * bulk upload of an archive shaped `<paper>/<run>/submission/` (the demo submission, packed here);
 * a refused upload lists each problem with where it is and stores nothing; the accepted one lands
 * on the evaluation's page with a cell per run. A paper of its own (the demo rubric) and a new
 * agent, so no other spec's board or list changes.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { TestInfo } from "@playwright/test";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { REPO_ROOT } from "./support/files";
import { STAFF } from "./support/users";

test.describe.configure({ timeout: 120_000 });

const DEMO_SUBMISSION = path.join(REPO_ROOT, "rubrics", "demo", "submission");

/** A .tar.gz holding `<paper>/<run>/submission/` (the demo submission) for each run, inside a wrapping folder. */
function bulkArchive(testInfo: TestInfo, name: string, paperId: string, runs: number[]): string {
  const root = testInfo.outputPath(`${name}-tree`);
  for (const run of runs)
    fs.cpSync(DEMO_SUBMISSION, path.join(root, "e2e-bulk", paperId, String(run), "submission"), {
      recursive: true,
    });
  const archive = testInfo.outputPath(`${name}.tar.gz`);
  execFileSync("tar", ["-czf", archive, "-C", root, "e2e-bulk"]);
  return archive;
}

test("staff create an evaluation from the form, fill it by uploading an archive, and land on its page with its cells", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const paperId = `e2e-bulk-${Date.now()}`;
  await paperWithDemoRubric(page, paperId);
  await page.goto("/");
  await page.getByRole("link", { name: "Evaluations", exact: true }).click();
  await expect(page).toHaveURL(/\/evaluations$/);

  await page.getByTestId("new-evaluation").click();
  const form = page.getByTestId("new-evaluation-form");
  await form.getByTestId("evaluation-name").fill("E2E bulk upload");
  await form.getByTestId("evaluation-agent-scaffold").fill("E2E Bulk");
  await form.getByTestId("evaluation-agent-model").fill("upload-model");
  await form.getByTestId("evaluation-split").selectOption("custom");
  await form.getByTestId("evaluation-paper-ids").fill(paperId);
  await form.getByTestId("evaluation-runs").fill("2");
  await form.getByTestId("policy-reproduction_failed").selectOption("exclude");
  await form.getByTestId("create-evaluation").click();

  const upload = page.getByTestId("bulk-upload-form");
  await expect(upload).toBeVisible();
  // Run 3 of a 2-run evaluation: refused with where and why, and nothing is stored.
  await upload.getByLabel("Submissions archive").setInputFiles(bulkArchive(testInfo, "too-many-runs", paperId, [1, 3]));
  await upload.getByTestId("bulk-upload").click();
  const error = upload.getByTestId("bulk-upload-error");
  await expect(error).toContainText(`${paperId}/3/submission/`);
  await expect(error).toContainText("has 2 run(s)");
  await expect(page).toHaveURL(/\/evaluations$/);

  await upload.getByLabel("Submissions archive").setInputFiles(bulkArchive(testInfo, "two-runs", paperId, [1, 2]));
  await upload.getByTestId("bulk-upload").click();
  await page.waitForURL(/\/evaluations\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const evaluationId = page.url().split("/").pop()!;

  await expect(page.getByTestId("evaluation-title")).toContainText("E2E bulk upload");
  const cells = page.locator(`[data-testid="matrix-cell"][data-paper="${paperId}"]`);
  await expect(cells).toHaveCount(2);
  await expect(cells.nth(0)).toHaveAttribute("data-run", "1");
  await expect(cells.nth(1)).toHaveAttribute("data-run", "2");

  // The list shows it, linking to the same page: 1 paper × 2 runs.
  await page.goto("/evaluations");
  const row = page.getByTestId("evaluation-row").filter({ hasText: "E2E bulk upload" });
  await expect(row).toContainText("E2E Bulk · upload-model");
  await expect(row).toContainText("2 × 1");
  await expect(row.getByRole("link", { name: "E2E bulk upload" })).toHaveAttribute(
    "href",
    `/evaluations/${evaluationId}`,
  );

  // Over the API, the two runs are the evaluation's submissions, and only those.
  const summary = await page.request.get(`/api/evaluations/${evaluationId}`);
  expect(summary.ok()).toBe(true);
  const body = (await summary.json()) as { cells: { paperId: string; run: number }[] };
  expect(body.cells.map((c) => [c.paperId, c.run])).toEqual([
    [paperId, 1],
    [paperId, 2],
  ]);
});
