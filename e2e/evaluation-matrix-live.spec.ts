/**
 * The evaluation page (issue 14): staff create an evaluation of a paper × 3 runs over the
 * API (a reproduction with nothing to judge counts as 0), open its page (empty, live), then upload
 * into it over the API the demo submission as run 1, a submission whose reproduce.sh never ends as
 * run 2 and one whose reproduce.sh exits 1 as run 3. Without a reload the matrix fills in: run 1
 * reproduced by the embedded runner and graded by the dummy judge (the seed's default without a
 * key) to counted 100%; run 3 judged all the same (as PaperBench judges every reproduction that
 * ran), its cell saying how reproduce.sh ended; run 2 seen reproducing, cancelled, then counted as
 * 0 (nothing to judge) with its reason in the failures list; Retry sends it back to reproducing,
 * and its second attempt, cancelled too, ends the same way. Arrow keys move between cells, the exports download, a cell opens its
 * grading, and a grader is refused the page.
 *
 * A paper of its own (the demo rubric) and a new agent: the demo paper's boards stay as other specs
 * read them.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { paperWithDemoRubric } from "./support/demo-paper";
import { expect, test } from "./support/fixtures";
import { REPO_ROOT } from "./support/files";
import { GRADER, STAFF } from "./support/users";
import { screenshots } from "./support/screenshots";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const AGENT = "E2E Matrix Agent";
const PAPER = `e2e-matrix-${crypto.randomBytes(3).toString("hex")}`;

/** A .tar.gz of a directory's contents. */
function pack(testInfo: TestInfo, name: string, dir: string): Buffer {
  const archive = testInfo.outputPath(`${name}.tar.gz`);
  fs.mkdirSync(path.dirname(archive), { recursive: true });
  execFileSync("tar", ["-czf", archive, "-C", dir, "."]);
  return fs.readFileSync(archive);
}

/** A repository whose reproduce.sh runs `script`. */
function scriptSubmission(testInfo: TestInfo, name: string, script: string): Buffer {
  const dir = testInfo.outputPath(`${name}-repo`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "reproduce.sh"), script);
  fs.writeFileSync(path.join(dir, "README.md"), `# ${name}\n`);
  return pack(testInfo, name, dir);
}

/** Cancels the cell's reproduce job once it has one for this attempt (staff, over the API). */
async function cancelReproduction(page: Page, run: number, attempt: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const matrix = (await (await page.request.get(`/api/evaluations/${evaluationId}/matrix`)).json()) as {
          cells: { run: number; attempts: number; stage: string; jobId: string | null }[];
        };
        const cell = matrix.cells.find((c) => c.run === run);
        if (!cell || cell.attempts !== attempt || cell.stage !== "reproducing" || !cell.jobId) return false;
        return (await page.request.post(`/api/jobs/${cell.jobId}/cancel`)).status();
      },
      { timeout: 0 },
    )
    .toBe(200);
}

/** The harness's upload: one run into the evaluation, the archive as the body. */
async function uploadRun(page: Page, evaluationId: string, run: number, archive: Buffer): Promise<void> {
  const query = new URLSearchParams({
    agent: AGENT,
    run: String(run),
    variant: "full",
    name: `run-${run}.tar.gz`,
    evaluation: evaluationId,
  });
  const res = await page.request.post(`/api/papers/${PAPER}/submissions?${query}`, {
    headers: { "content-type": "application/octet-stream" },
    data: archive,
  });
  expect(res.status(), await res.text()).toBe(201);
}

let evaluationId = "";

test("staff watch an evaluation's matrix fill in live, see a failed reproduction with its reason and retry it", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  await paperWithDemoRubric(page, PAPER);
  // The Dummy judge by name: another spec may add a model judge (which the default would pick) meanwhile.
  const { configs } = (await (await page.request.get("/api/judge/configs")).json()) as {
    configs: { id: string; kind: string }[];
  };
  const created = await page.request.post("/api/evaluations", {
    data: {
      judgeConfigId: configs.find((c) => c.kind === "dummy")!.id,
      name: "E2E matrix",
      agent: AGENT,
      split: "custom",
      paperIds: [PAPER],
      runs: 3,
      policies: {
        reproduction_failed: "zero",
        reproduction_timed_out: "exclude",
        judge_invalid_leaves: { retry: 1 },
        blacklisted: "zero",
      },
      setup: { time_limit_h: 1, hardware: "1× A10", scaffold: "BasicAgent", tools: "bash, python" },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  evaluationId = ((await created.json()) as { evaluation: { id: string } }).evaluation.id;

  await page.goto(`/evaluations/${evaluationId}`);
  await expect(page.getByTestId("evaluation-title")).toHaveText("E2E matrix");
  await expect(page.getByTestId("evaluation-agent")).toHaveText(AGENT);
  await expect(page.getByTestId("evaluation-facts")).toContainText("1× A10");
  const policy = (kind: string) => page.locator(`[data-testid="policy"][data-kind="${kind}"]`);
  await expect(policy("reproduction_failed")).toHaveText("Nothing to judge (reproduction failed): count as 0");
  await expect(page.getByTestId("policies-note")).toContainText("Every reproduction that ran is judged");
  await expect(policy("judge_invalid_leaves")).toHaveText("Judge left invalid leaves: retry up to 1, then exclude");
  await expect(page.getByTestId("evaluation-empty")).toContainText(`--evaluation ${evaluationId}`);
  await expect(page.getByTestId("evaluation-connection")).toHaveAttribute("data-connection", "live");
  const cell = (run: number) => page.locator(`[data-testid="matrix-cell"][data-paper="${PAPER}"][data-run="${run}"]`);
  await expect(cell(1)).toHaveAttribute("data-stage", "empty");
  await expect(cell(2)).toHaveAttribute("data-stage", "empty");

  // Arrow keys move between cells, even cells with nothing to open.
  await cell(1).focus();
  await page.keyboard.press("ArrowRight");
  await expect(cell(2)).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(cell(1)).toBeFocused();

  // From here on the page is never reloaded: a marker on window would be lost.
  await page.evaluate(() => ((window as unknown as { e2eMarker: string }).e2eMarker = "same page"));
  await uploadRun(page, evaluationId, 1, pack(testInfo, "demo", path.join(REPO_ROOT, "rubrics", "demo", "submission")));
  await uploadRun(
    page,
    evaluationId,
    2,
    scriptSubmission(testInfo, "endless", `#!/usr/bin/env bash\necho "training…"\nsleep 600\n`),
  );
  await uploadRun(
    page,
    evaluationId,
    3,
    scriptSubmission(testInfo, "exit-1", `#!/usr/bin/env bash\necho "training…"\necho "out of memory" >&2\nexit 1\n`),
  );

  await expect(page.getByTestId("evaluation-empty")).toHaveCount(0);
  await expect(cell(2)).toHaveAttribute("data-stage", "reproducing", { timeout: 0 });
  await cancelReproduction(page, 2, 1);
  await expect(page.getByTestId("evaluation-progress")).toBeVisible();
  await expect(cell(1)).toHaveAttribute("data-stage", "counted", { timeout: 0 });
  await expect(cell(1).getByTestId("cell-score")).toHaveText("100.0%");
  await expect(cell(1)).toHaveAttribute("href", /^\/gradings\/[0-9a-f-]{36}$/);

  await expect(cell(2)).toHaveAttribute("data-stage", "counted", { timeout: 0 });
  await expect(cell(2).getByTestId("cell-score")).toHaveText("0.0%");
  await expect(cell(2)).toHaveAttribute("href", /^\/submissions\/[0-9a-f-]{36}$/);
  const failure = page.locator(`[data-testid="failure"][data-paper="${PAPER}"][data-run="2"]`);
  await expect(failure.getByTestId("failure-reason")).toContainText("reproduction cancelled, nothing to judge");
  await expect(failure.getByTestId("failure-reason")).toContainText("count as 0");
  // Run 3 exited 1 and is judged all the same; its cell says how reproduce.sh ended.
  await expect(cell(3)).toHaveAttribute("data-stage", "counted", { timeout: 0 });
  await expect(cell(3).getByTestId("cell-score")).toHaveText("100.0%");
  await expect(cell(3)).toHaveAttribute("data-reproduction", /^reproduce\.sh exited 1 after /);
  await expect(cell(3)).toHaveAttribute("href", /^\/gradings\/[0-9a-f-]{36}$/);
  await expect(page.locator('[data-testid="failure"][data-run="3"]')).toHaveCount(0);
  await expect(page.getByTestId("progress-count")).toHaveText("3 / 3 cells counted or excluded");
  await expect(page.locator('[data-testid="run-score"][data-run="1"]')).toContainText("100.0%");
  await expect(page.locator('[data-testid="run-score"][data-run="2"]')).toContainText("0.0%");
  await expect(page.getByTestId("adjusted-cells").locator('[data-testid="cell-note"][data-run="2"]')).toContainText(
    "count as 0",
  );
  await screenshots(page, testInfo, "evaluation-matrix", { fullPage: true });

  // Retry the failed cell: back to reproducing (its second attempt), cancelled again, then counted as 0 again.
  await failure.getByTestId("retry-cell").click();
  await expect(cell(2)).toHaveAttribute("data-stage", "reproducing", { timeout: 0 });
  await expect(cell(2)).toHaveAttribute("aria-label", /attempt 2/);
  await cancelReproduction(page, 2, 2);
  await expect(cell(2)).toHaveAttribute("data-stage", "counted", { timeout: 0 });
  await expect(failure.getByTestId("failure-reason")).toContainText("nothing to judge");
  expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe("same page");

  // The exports are downloads of the export route.
  await expect(page.getByTestId("export-json")).toHaveAttribute(
    "href",
    `/api/evaluations/${evaluationId}/export?format=json`,
  );
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = fs.readFileSync(await download.path(), "utf8");
  expect(csv.split("\r\n")[0]).toMatch(/^paper_id,run,/);
  expect(csv).toContain(`${PAPER},2,`);

  // A cell opens its grading.
  await cell(1).click();
  await page.waitForURL(/\/gradings\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("review-page")).toBeVisible();
});

test("a grader is refused the evaluation page", async ({ asUser }) => {
  const page = await asUser(GRADER);
  await page.goto(`/evaluations/${evaluationId}`);
  await expect(page.getByTestId("access-denied")).toContainText("benchmark staff");
  await expect(page.getByTestId("evaluation-page")).toHaveCount(0);
});
