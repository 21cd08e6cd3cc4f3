/**
 * The judge from the studio (issue 13): staff reproduce the demo submission (the embedded runner
 * makes it succeed in seconds), open Run judge, read the estimate (calls, tokens, cost) of o3-mini
 * and start the Dummy judge on the full variant, watch its progress card reach done, open the
 * grading, select a leaf and follow its evidence link to the cited lines, highlighted (and marked in
 * plain text when highlighting cannot load). On the
 * paper page they select submissions (one by one, or an agent's all), read the combined estimate
 * of two runs and start it: a toast links both, and the list shows each one's judge run.
 *
 * On a paper of its own with the demo rubric: the demo repository uploaded as two runs of an agent
 * of its own, so the demo paper's submissions and boards stay as the other specs read them.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { REPO_ROOT } from "./support/files";
import { uploadSubmission } from "./support/judge-run";
import { expectReproductionSucceeded } from "./support/reproduction";
import { STAFF } from "./support/users";
import { screenshots } from "./support/screenshots";

test.describe.configure({ mode: "serial", timeout: 120_000 });

const PAPER = `e2e-judge-run-${crypto.randomBytes(3).toString("hex")}`;
const AGENT = "E2E Agent · o1";

/** The demo repository as a submission archive. */
function demoArchive(testInfo: TestInfo): Buffer {
  const archive = testInfo.outputPath("demo.tar.gz");
  fs.mkdirSync(path.dirname(archive), { recursive: true });
  execFileSync("tar", ["-czf", archive, "-C", path.join(REPO_ROOT, "rubrics", "demo", "submission"), "."]);
  return fs.readFileSync(archive);
}

/** The agent's run 1 (made by the first test): never reproduced or graded before it. */
async function judgedSubmissionId(page: Page): Promise<string> {
  const res = await page.request.get(`/api/papers/${PAPER}/submissions`);
  expect(res.status()).toBe(200);
  const { submissions } = (await res.json()) as {
    submissions: { id: string; agentName: string; runIndex: number }[];
  };
  const found = submissions.filter((s) => s.agentName === AGENT && s.runIndex === 1);
  expect(found, "the agent's run 1").toHaveLength(1);
  return found[0].id;
}

test("staff judge the reproduced demo submission with the dummy judge and follow a verdict's evidence to the highlighted lines", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  await paperWithDemoRubric(page, PAPER);
  const archive = demoArchive(testInfo);
  const submissionId = await uploadSubmission(page, PAPER, { agent: AGENT, run: "1" }, archive);
  await uploadSubmission(page, PAPER, { agent: AGENT, run: "2" }, archive);
  await page.goto(`/submissions/${submissionId}`);
  await page.getByTestId("reproduce").click();
  await expectReproductionSucceeded(page, submissionId);

  const judge = page.getByTestId("judge-runs");
  await judge.getByTestId("run-judge").click();
  const dialog = page.getByTestId("run-judge-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("judge-variant").selectOption("full");

  // o3-mini's estimate, counted from the real prompts: calls, tokens and cost (its key is not set here).
  await dialog.getByTestId("judge-config").selectOption({ label: "o3-mini (o3-mini) — key not set" });
  await expect(dialog.getByTestId("judge-estimate-calls")).toHaveText(/^[1-9]\d*$/);
  const calls = Number(await dialog.getByTestId("judge-estimate-calls").textContent());
  await expect(dialog.getByTestId("judge-estimate")).toContainText(/Tokens in \/ cached \/ out\s*[\d.]+ k/);
  await expect(dialog.getByTestId("judge-estimate-cost")).toHaveText(/^\$\d+\.\d\d$|^< \$0\.01$/);
  await expect(dialog.getByTestId("judge-confirm")).toBeDisabled();
  await screenshots(page, testInfo, "run-judge-dialog");

  // The dummy judge: no calls, no cost, every leaf of the full rubric.
  await dialog.getByTestId("judge-config").selectOption({ label: "Dummy judge (dummy)" });
  await expect(dialog.getByTestId("judge-estimate-cost")).toHaveText("$0");
  await expect(dialog.getByTestId("judge-estimate")).toContainText("1 · 21");
  expect(calls).toBeGreaterThanOrEqual(21);
  await dialog.getByTestId("judge-confirm").click();
  await expect(dialog).toHaveCount(0);

  const card = judge.getByTestId("judge-run").first();
  await expect(card).toHaveAttribute("data-status", "succeeded", { timeout: 0 });
  await expect(card.getByTestId("judge-run-leaves")).toHaveText("21 / 21");
  await expect(card.getByTestId("judge-run-vs-estimate")).toContainText("took 0 calls");
  await card.scrollIntoViewIfNeeded();
  await screenshots(page, testInfo, "judge-run-card");

  // /jobs: the judge job's row shows its progress and links to the grading.
  await page.goto(`/jobs?kind=judge&paper=${PAPER}`);
  const jobRow = page.getByTestId("job-row").first();
  await expect(jobRow.getByTestId("job-judge-progress")).toContainText("21/21 leaves");
  await screenshots(page, testInfo, "jobs");
  await jobRow.getByTestId("job-grading-link").click();
  await page.waitForURL(/\/gradings\/[0-9a-f-]{36}$/);

  // The grading: a leaf's placeholder evidence opens reproduce.sh at lines 1-3, highlighted.
  await expect(page.getByTestId("review-page")).toBeVisible();
  await page.locator('[data-testid="review-row"][data-leaf]').nth(2).click();
  const panel = page.getByTestId("leaf-panel");
  await expect(panel.getByTestId("leaf-explanation")).toContainText("dummy judge");
  // The explanation reads as written until the markdown renderer has loaded (once the page is idle), then rendered.
  await expect(panel.getByTestId("leaf-explanation").getByTestId("markdown-source")).toHaveCount(0);
  const link = panel.getByTestId("evidence-link").first();
  await expect(link).toHaveText(/reproduce\.sh:1–3/);
  await link.click();
  const view = page.locator('[data-testid="file-view"][data-path="reproduce.sh"]');
  await expect(view.locator('.line[data-evidence="true"]')).toHaveCount(3);
  await expect(view.locator('.line[data-evidence="true"]').first()).toContainText("#!/usr/bin/env bash");
  await expect(view.locator('.line[data-evidence="true"]').first()).toBeInViewport();
  await screenshots(page, testInfo, "evidence");

  // Highlighting that cannot load (its chunks refused): the file shows as plain text, and the cited
  // lines are marked in it all the same.
  await page.reload();
  await expect(page.getByTestId("review-page")).toBeVisible();
  await page.locator('[data-testid="review-row"][data-leaf]').nth(2).click();
  await expect(panel.getByTestId("leaf-explanation")).toContainText("dummy judge");
  await page.route(/\/_next\/static\/chunks\//, (route) => route.abort());
  await panel.getByTestId("evidence-link").first().click();
  await expect(view.locator('.line[data-evidence="true"]')).toHaveCount(3);
  await expect(view.locator('.line[data-evidence="true"]').first()).toContainText("#!/usr/bin/env bash");
  await expect(view.getByTestId("highlighted")).toHaveCount(0);
  await page.unroute(/\/_next\/static\/chunks\//);
});

test("staff select submissions on the paper page, an agent's runs at once, and read the combined estimate of two", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const submissionId = await judgedSubmissionId(page);
  const copyId = await uploadSubmission(
    page,
    PAPER,
    { agent: "E2E Copy · judge", run: "1", variant: "code-dev", name: "demo-copy.tar.gz" },
    demoArchive(testInfo),
  );
  await page.goto(`/papers/${PAPER}`);
  const panel = page.getByTestId("submissions-panel");
  const demoRow = panel.locator(`[data-testid="submission-row"][data-submission="${submissionId}"]`);
  // The list shows the submission's latest judge run (the previous test's).
  await expect(demoRow.getByTestId("submission-judge")).toHaveAttribute("data-status", "succeeded");
  await expect(demoRow.getByTestId("submission-judge")).toContainText("21/21");

  const agent = panel.locator(`[data-testid="agent-runs"][data-agent="${AGENT}"]`);
  const runs = await agent.getByTestId("submission-row").count();
  expect(runs).toBeGreaterThanOrEqual(2);
  await agent.getByTestId("select-agent-runs").check();
  await expect(panel.getByTestId("judge-selection")).toContainText(`${runs} selected`);
  await agent.getByTestId("select-agent-runs").uncheck();
  await expect(panel.getByTestId("judge-selection")).toHaveCount(0);

  await demoRow.getByTestId("select-submission").check();
  await expect(agent.getByTestId("select-agent-runs")).not.toBeChecked();
  await panel
    .locator(`[data-testid="submission-row"][data-submission="${copyId}"]`)
    .getByTestId("select-submission")
    .check();
  const bar = panel.getByTestId("judge-selection");
  await expect(bar).toContainText("2 selected");
  await screenshots(page, testInfo, "selection");
  await bar.getByRole("button", { name: "Run judge on 2…" }).click();
  const dialog = page.getByTestId("run-judge-dialog");
  await dialog.getByTestId("judge-config").selectOption({ label: "Dummy judge (dummy)" });
  // One of them is a Code-Dev run, so the dialog opens on Code-Dev.
  await expect(dialog.getByTestId("judge-variant")).toHaveValue("code-dev");
  await expect(dialog.getByTestId("judge-estimate")).toContainText(/Runs · leaves\s*2 · \d+/);
  await screenshots(page, testInfo, "run-judge-two");

  // Confirmed: a toast links both submissions, the selection clears, and each row shows its new run.
  await dialog.getByTestId("judge-confirm").click();
  await expect(dialog).toHaveCount(0);
  const links = page.getByTestId("judge-started-links").getByRole("link");
  await expect(links).toHaveText([`${AGENT} run 1`, "E2E Copy · judge run 1"], { useInnerText: true });
  await expect(panel.getByTestId("judge-selection")).toHaveCount(0);
  for (const id of [submissionId, copyId]) {
    const judged = panel
      .locator(`[data-testid="submission-row"][data-submission="${id}"]`)
      .getByTestId("submission-judge");
    await expect(judged).toHaveAttribute("data-status", "succeeded", { timeout: 0 });
    await expect(judged).toContainText("13/13");
  }
  await links.last().click();
  await page.waitForURL(`/submissions/${copyId}`);
  await expect(page.getByTestId("judge-run").first()).toHaveAttribute("data-status", "succeeded");
});
