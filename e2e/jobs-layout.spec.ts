/**
 * /jobs' columns (issue 21): a run's name and a job's reason were cut off, and a judge job's
 * progress sat under the RUNNER header. On a paper of its own: a reproduction that fails and a
 * Dummy judge run of a Code-Dev submission. The table is filtered to that paper, so jobs other
 * specs run at the same time are not in it.
 */
import crypto from "node:crypto";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { scriptArchive, startDummyJudgeRun, uploadSubmission } from "./support/judge-run";
import { screenshots } from "./support/screenshots";
import { STAFF } from "./support/users";

test.describe.configure({ timeout: 120_000 });

const PAPER = `e2e-jobs-${crypto.randomBytes(3).toString("hex")}`;
const AGENT = "E2E Jobs Layout Agent · claude-3-5-sonnet-20241022";

test("/jobs shows a run's name and a reason whole, and a judge job's progress under its own header", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  await paperWithDemoRubric(page, PAPER);
  await uploadSubmission(
    page,
    PAPER,
    { agent: AGENT, run: "1", reproduce: "1" },
    scriptArchive(testInfo, "failing", "echo failing on purpose\nexit 3"),
  );
  const codeDev = await uploadSubmission(
    page,
    PAPER,
    { agent: AGENT, run: "2", variant: "code-dev" },
    scriptArchive(testInfo, "code-dev", "echo never run"),
  );
  await startDummyJudgeRun(page, codeDev);

  await page.goto(`/jobs?paper=${PAPER}`);
  const failed = page.locator('[data-testid="job-row"][data-status="failed"]');
  await expect(failed.getByTestId("job-reason")).toHaveText("reproduce.sh exited with status 3", { timeout: 0 });
  const judged = page.locator('[data-testid="job-row"][data-status="succeeded"]');
  await expect(judged.getByTestId("job-judge-progress")).toContainText(/^\d+\/\d+ leaves/, { timeout: 0 });

  const headers = await page.getByTestId("jobs-table").locator("thead th").allTextContents();
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    await page.setViewportSize(size);
    // The judge's progress is in the Progress column, the studio's worker under Ran on.
    const cells = judged.locator("td");
    const progressColumn = await judged
      .getByTestId("job-progress")
      .evaluate((td) => (td as HTMLTableCellElement).cellIndex);
    expect(headers[progressColumn]).toBe("Progress");
    expect(await cells.count()).toBe(headers.length);
    await expect(judged.getByTestId("job-ran-on")).toHaveText("studio worker");
    // Nothing cut: each run's name whole, the reason whole, the table as wide as the page gives it.
    for (const row of [failed, judged]) {
      const submission = row.getByTestId("job-submission");
      await expect(submission).toContainText(AGENT);
      expect(
        await submission.evaluate((td) => td.scrollWidth <= td.clientWidth),
        `submission at ${size.width} px`,
      ).toBe(true);
    }
    expect(
      await failed
        .getByTestId("job-reason")
        .evaluate((td) => td.scrollWidth <= td.clientWidth && td.scrollHeight <= td.clientHeight + 1),
    ).toBe(true);
    const table = page.getByTestId("jobs-table");
    expect(
      await table.evaluate((t) => t.scrollWidth <= t.parentElement!.clientWidth),
      `table at ${size.width} px`,
    ).toBe(true);
  }
  await screenshots(page, testInfo, "jobs-columns");
});
