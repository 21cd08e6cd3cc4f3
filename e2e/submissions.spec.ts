/**
 * Submissions and their reproduction (issue 12): staff upload a repository on the demo paper with
 * Reproduce on, watch the live log of the studio's embedded runner, see it succeed with exit code
 * 0 and results.csv among the outputs marked changed; then cancel a long run from the UI.
 *
 * The studio starts its own runner (playwright.config.ts: EMBEDDED_RUNNER=1, PORT), so these
 * specs run a real reproduce.sh end to end.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { expectReproductionSucceeded, submissionIdOf } from "./support/reproduction";
import { DEMO_PAPER, STAFF } from "./support/users";

test.describe.configure({ mode: "serial", timeout: 120_000 });

/** A .tar.gz of a repository holding `reproduce.sh` with this body. */
function submissionArchive(testInfo: TestInfo, name: string, script: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-submission-"));
  fs.writeFileSync(path.join(dir, "reproduce.sh"), `#!/usr/bin/env bash\nset -e\n${script}\n`);
  fs.writeFileSync(path.join(dir, "README.md"), "# A submission of the e2e suite\n");
  const archive = testInfo.outputPath(`${name}.tar.gz`);
  fs.mkdirSync(path.dirname(archive), { recursive: true });
  execFileSync("tar", ["-czf", archive, "-C", dir, "."]);
  fs.rmSync(dir, { recursive: true, force: true });
  return archive;
}

/** Staff upload an archive on the demo paper with Reproduce on; the studio opens its submission page. */
async function uploadAndReproduce(page: Page, archive: string, agent: string): Promise<void> {
  await page.goto(`/papers/${DEMO_PAPER.id}`);
  const panel = page.getByTestId("submissions-panel");
  await panel.getByTestId("open-upload-submission").click();
  await panel.getByLabel("Submission archive").setInputFiles(archive);
  await panel.getByTestId("submission-agent").fill(agent);
  await panel.getByTestId("submission-run").fill("1");
  await expect(panel.getByTestId("submission-reproduce")).toBeChecked();
  await panel.getByTestId("upload-submission").click();
  await page.waitForURL(/\/submissions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expect(page.getByTestId("submission-title")).toContainText(agent);
}

test("staff upload a submission, watch its live log, see it succeed and open its outputs", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const archive = submissionArchive(
    testInfo,
    "counting",
    `for i in 1 2 3 4 5 6 7 8; do echo "step $i of 8"; sleep 0.3; done
printf 'metric,value\\nloss,0.42\\n' > results.csv
echo "wrote results.csv"`,
  );
  await uploadAndReproduce(page, archive, "E2E Agent · counting");

  const log = page.getByTestId("log-view");
  // The lines arrive while reproduce.sh runs: the first before the last, on one page load.
  // The job may wait behind other specs' jobs first: the test's timeout is the only bound.
  await expect(log).toContainText("step 1 of 8", { timeout: 0 });
  // The end of the run is the event to wait on: on a loaded machine the runner ships the last lines
  // in a later batch than "step 8", so the log is checked whole once its stream has ended.
  await expectReproductionSucceeded(page, submissionIdOf(page));
  await expect(page.getByTestId("job-exit-code")).toHaveText("0");
  await expect(page.getByTestId("log-connection")).toHaveAttribute("data-connection", "ended", { timeout: 0 });
  await expect(log).toContainText("step 8 of 8");
  await expect(log).toContainText("wrote results.csv");

  // Search marks the match and Enter jumps to it.
  await page.getByTestId("log-search").fill("step 5");
  await page.getByTestId("log-search").press("Enter");
  await expect(page.getByTestId("log-match-count")).toHaveText("1/1");
  await expect(log.locator('mark[data-match="current"]')).toHaveText("step 5");

  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`submission-log-${width}.png`) });
  }

  await page.getByTestId("tab-outputs").click();
  const results = page.getByTestId("output-file").filter({ hasText: "results.csv" });
  await expect(results).toHaveAttribute("data-changed", "true");
  await expect(page.getByTestId("output-file").filter({ hasText: "README.md" })).toHaveAttribute(
    "data-changed",
    "false",
  );
  await expect(page.getByTestId("download-outputs")).toHaveAttribute("href", /\/api\/jobs\/[0-9a-f-]{36}\/outputs$/);
  await page.screenshot({ path: testInfo.outputPath("submission-outputs-1024.png") });

  await page.getByTestId("tab-metadata").click();
  await expect(page.getByTestId("metadata-panel")).toContainText("reproduce.sh found");

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/jobs");
  const row = page.getByTestId("job-row").filter({ hasText: "E2E Agent · counting" });
  await expect(row).toHaveAttribute("data-status", "succeeded");
  await page.screenshot({ path: testInfo.outputPath("jobs-1440.png") });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: testInfo.outputPath("jobs-1024.png") });
  await page.getByTestId("filter-failed").click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(row).toHaveCount(0);

  // The runner that ran it, and a runner token shown once.
  await page.goto("/runners");
  await expect(page.getByTestId("runner-row").filter({ hasText: "embedded" })).toContainText(/\d+ s ago/);
  await page.getByTestId("token-name").fill("e2e gpu host");
  await page.getByTestId("create-token").click();
  await expect(page.getByTestId("shown-once-secret")).toHaveText(/^rst_runner_/);
  await expect(page.getByTestId("token-row").filter({ hasText: "e2e gpu host" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("runners-1024.png"), fullPage: true });
});

test("staff cancel a running reproduction from the submission page", async ({ asUser }, testInfo) => {
  const page = await asUser(STAFF);
  const archive = submissionArchive(
    testInfo,
    "sleeper",
    `echo "sleeping for a minute"\nsleep 60\necho "never printed"`,
  );
  await uploadAndReproduce(page, archive, "E2E Agent · sleeper");

  await expect(page.getByTestId("log-view")).toContainText("sleeping for a minute", { timeout: 0 });
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "running");
  await page.getByTestId("cancel-job").click();
  await page.getByTestId("confirm-dialog").getByTestId("confirm").click();
  // SIGTERM, then SIGKILL after 10 s at most; the runner reports it at its next heartbeat or sooner.
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "cancelled", { timeout: 0 });
  await expect(page.getByTestId("log-view")).not.toContainText("never printed");
  await expect(page.getByTestId("retry")).toBeVisible();
});
