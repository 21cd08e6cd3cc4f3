/**
 * "Judge runs over time" on /judge (issue 21, as Langfuse charts traces): staff run the Dummy judge
 * on a Code-Dev submission of a paper of their own; once it finishes, the Dummy configuration's
 * chart shows its runs with their totals, and the metric switch redraws every chart.
 */
import crypto from "node:crypto";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { scriptArchive, startDummyJudgeRun, uploadSubmission } from "./support/judge-run";
import { screenshots } from "./support/screenshots";
import { STAFF } from "./support/users";

test.describe.configure({ timeout: 120_000 });

test("/judge charts each configuration's finished runs: cost, tokens, latency and invalid leaves", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const paperId = `e2e-judge-history-${crypto.randomBytes(3).toString("hex")}`;
  await paperWithDemoRubric(page, paperId);
  const submissionId = await uploadSubmission(
    page,
    paperId,
    { agent: "E2E Judge History · dummy", run: "1", variant: "code-dev" },
    scriptArchive(testInfo, "code-dev", "echo never run"),
  );
  const runId = await startDummyJudgeRun(page, submissionId);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/judge/runs/${runId}`)).json()) as { run: { status: string } }).run.status,
      { timeout: 0, intervals: [500] },
    )
    .toBe("succeeded");

  // The API: the Dummy configuration's runs (other specs' too), this one with all its leaves graded, none invalid.
  const { configs } = (await (await page.request.get("/api/judge/history")).json()) as {
    configs: { name: string; runs: { runId: string; costUsd: number; invalidRate: number | null }[] }[];
  };
  const dummy = configs.find((c) => c.runs.some((r) => r.runId === runId))!;
  expect(dummy.runs.find((r) => r.runId === runId)).toMatchObject({ runId, costUsd: 0, invalidRate: 0 });

  await page.goto("/judge");
  const history = page.getByTestId("judge-history");
  const card = history.locator(`[data-testid="judge-history-config"][data-name="${dummy.name}"]`);
  await expect(card).toBeVisible();
  // At least the runs the API listed: specs running beside this one may add Dummy runs of their own.
  const totals = card.getByTestId("judge-history-totals");
  await expect(totals).toContainText(/\d+ runs?/);
  const runsShown = async () => Number(/(\d+) runs?/.exec((await totals.textContent()) ?? "")![1]);
  expect(await runsShown()).toBeGreaterThanOrEqual(dummy.runs.length);
  await expect(totals).toContainText("0.0% invalid");
  // One dot per run the card counts, drawn for every metric.
  for (const metric of ["cost", "tokens", "latency", "invalid"]) {
    await history.getByTestId(`judge-history-metric-${metric}`).click();
    await expect(history.getByTestId(`judge-history-metric-${metric}`)).toHaveAttribute("aria-pressed", "true");
    await expect(card.locator(".recharts-line-dot")).toHaveCount(await runsShown());
  }
  await card.scrollIntoViewIfNeeded();
  await screenshots(page, testInfo, "judge-history");
});
