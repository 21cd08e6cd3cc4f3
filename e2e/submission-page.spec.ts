/**
 * What a newcomer met on submissions (issue 21, bug 7 and the submission friction): every demo run
 * has files and offers Reproduce; the upload takes a folder (flagged without reproduce.sh); outputs
 * open in place in the files viewer (CSV as a table, JSON, logs, images; HTML and SVG only as
 * source); the judge card shows its score, attempts show only after a retry, "1 file"; the judge
 * dialog warns when the paper has no text.
 *
 * It looks at the demo's runs without changing them; what it uploads and judges is its own agents'
 * (and its own paper's), so the demo's counts stay.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { DEMO_RUBRIC_PATH } from "./support/files";
import { expect, test } from "./support/fixtures";
import { screenshots } from "./support/screenshots";
import { expectReproductionSucceeded, submissionIdOf } from "./support/reproduction";
import { DEMO_PAPER, STAFF } from "./support/users";

test.describe.configure({ mode: "serial", timeout: 120_000 });

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned = 'svg'"><script>window.__pwned = 'svg'</script></svg>\n`;
const HOSTILE_HTML = `<html><body><img src=x onerror="window.__pwned = 'html'"><script>window.__pwned = 'html'</script></body></html>\n`;

/** A folder on disk with these files (paths relative to it). */
function folder(testInfo: TestInfo, name: string, files: Record<string, string | Buffer>): string {
  const dir = testInfo.outputPath(name);
  for (const [rel, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), data);
  }
  return dir;
}

async function openUpload(page: Page) {
  await page.goto(`/papers/${DEMO_PAPER.id}`);
  const panel = page.getByTestId("submissions-panel");
  await panel.getByTestId("open-upload-submission").click();
  return panel;
}

test("every demo run has the demo repository as its files and offers Reproduce; its Files tab shows them before any reproduction", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  await page.goto(`/papers/${DEMO_PAPER.id}`);
  const panel = page.getByTestId("submissions-panel");
  const demoRuns = panel.locator('[data-testid="agent-runs"][data-agent^="Demo "]').getByTestId("submission-row");
  // Four demo agents with three graded runs each, and the demo submission (run 4 of the first).
  await expect(demoRuns).toHaveCount(13);
  for (const count of await demoRuns.getByTestId("submission-file-count").all()) await expect(count).toHaveText("3");
  await screenshots(page, testInfo, "demo-submissions", { fullPage: true });

  const run = panel
    .locator('[data-testid="agent-runs"][data-agent="Demo IterativeAgent · o3-mini"]')
    .getByTestId("submission-row")
    .nth(1);
  await run.getByRole("link").click();
  await expect(page.getByTestId("submission-title")).toContainText("run 2");
  await expect(page.getByTestId("reproduce")).toBeVisible();
  await expect(page.getByTestId("submission-archive")).toContainText("demo-submission.tar.gz · 3 files");
  await expect(page.getByTestId("no-reproduction")).toHaveText(/^These are the files as submitted\./);
  await expect(page.getByTestId("file-list")).toContainText("reproduce.sh");
  await expect(page.getByTestId("file-view")).toBeVisible();
  await screenshots(page, testInfo, "demo-run-files");
});

test("staff upload a folder (flagged without reproduce.sh), open its outputs in place, hostile markup as text, and read the judge's score", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const panel = await openUpload(page);
  await panel
    .getByLabel("Submission folder")
    .setInputFiles(folder(testInfo, "not-a-repo", { "README.md": "# only notes\n" }));
  await expect(panel.getByTestId("submission-folder-name")).toHaveText("not-a-repo (1 file, 13 B)");
  await expect(panel.getByTestId("submission-no-reproduce-sh")).toBeVisible();
  await panel.getByTestId("upload-submission-form").scrollIntoViewIfNeeded();
  await screenshots(page, testInfo, "upload-folder-flagged");

  const repo = folder(testInfo, "viewer-repo", {
    "reproduce.sh": [
      "#!/usr/bin/env bash",
      "set -e",
      "mkdir -p results",
      `printf 'metric,value\\nloss,0.42\\n"a,b",2\\n' > results/out.csv`,
      `printf '{"loss":0.42,"steps":[1,2]}' > results/metrics.json`,
      `printf '\\033[32mtraining ok\\033[0m\\n' > results/train.log`,
      "echo done",
      "",
    ].join("\n"),
    "plot.png": PNG,
    "evil.svg": HOSTILE_SVG,
    "evil.html": HOSTILE_HTML,
  });
  await panel.getByLabel("Submission folder").setInputFiles(repo);
  await expect(panel.getByTestId("submission-no-reproduce-sh")).toHaveCount(0);
  await panel.getByTestId("submission-agent").fill("E2E Agent · viewer");
  await panel.getByTestId("submission-run").fill("1");
  await expect(panel.getByTestId("submission-reproduce")).toBeChecked();
  await panel.getByTestId("upload-submission").click();
  await page.waitForURL(/\/submissions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expectReproductionSucceeded(page, submissionIdOf(page));
  // One attempt that succeeded: nothing to say about attempts.
  await expect(page.getByTestId("job-attempt")).toHaveCount(0);
  await expect(page.getByTestId("submission-archive")).toContainText("viewer-repo.tar · 4 files");

  await page.getByTestId("tab-outputs").click();
  const outputs = page.getByTestId("outputs-panel");
  const view = outputs.getByTestId("file-view");
  await outputs.getByTestId("output-file").filter({ hasText: "results/out.csv" }).click();
  const table = view.getByTestId("file-csv-table");
  await expect(table.locator("th")).toHaveText(["metric", "value"]);
  await expect(table.locator("tbody tr").nth(1).locator("td")).toHaveText(["a,b", "2"]);
  await screenshots(page, testInfo, "outputs-csv");

  await outputs.getByTestId("output-file").filter({ hasText: "results/metrics.json" }).click();
  await expect(view).toHaveAttribute("data-kind", "json");
  await expect(view).toContainText('"loss": 0.42');
  await outputs.getByTestId("output-file").filter({ hasText: "results/train.log" }).click();
  await expect(view.getByTestId("file-log")).toHaveText("training ok");

  await outputs.getByTestId("output-file").filter({ hasText: "plot.png" }).click();
  const image = view.getByTestId("file-image");
  await expect(image).toHaveJSProperty("naturalWidth", 1);
  const imageUrl = new URL((await image.getAttribute("src"))!, page.url()).toString();
  const served = await page.request.get(imageUrl);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  await screenshots(page, testInfo, "outputs-image");

  // Markup from a run is shown as its source and never runs; it is never served as an image either.
  for (const name of ["evil.svg", "evil.html"]) {
    await outputs.getByTestId("output-file").filter({ hasText: name }).click();
    await expect(view).toHaveAttribute("data-path", name);
    await expect(view).toHaveAttribute("data-kind", "text");
    await expect(view).toContainText("<script>window.__pwned");
    expect((await page.request.get(imageUrl.replace("plot.png", name))).status()).toBe(400);
  }
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  await screenshots(page, testInfo, "outputs-hostile");

  // The judge card shows the grading's score once the run is done.
  const judge = page.getByTestId("judge-runs");
  await judge.getByTestId("run-judge").click();
  const dialog = page.getByTestId("run-judge-dialog");
  await dialog.getByTestId("judge-config").selectOption({ label: "Dummy judge (dummy)" });
  await expect(dialog.getByTestId("judge-estimate")).toContainText(/Runs · leaves/);
  await dialog.getByTestId("judge-confirm").click();
  const card = judge.getByTestId("judge-run").first();
  await expect(card).toHaveAttribute("data-status", "succeeded", { timeout: 0 });
  await expect(card.getByTestId("judge-run-score")).toHaveText("Score 100.0%");
  await screenshots(page, testInfo, "judge-score");
});

test("judging a paper without paper text: the dialog says a model judge grades without the paper and links to where staff add it", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const paperId = `e2e-no-text-${Date.now().toString(36)}`;
  expect(
    (
      await page.request.post("/api/papers", { data: { id: paperId, title: "A paper imported without its text" } })
    ).status(),
  ).toBe(201);
  const rubric = await page.request.put(`/api/papers/${paperId}/rubric`, {
    headers: { "content-type": "application/json" },
    data: fs.readFileSync(DEMO_RUBRIC_PATH),
  });
  expect(rubric.status()).toBe(200);
  const query = new URLSearchParams({ agent: "E2E Agent · no text", run: "1", variant: "code-dev", name: "one.tar" });
  const archive = testInfo.outputPath("one.tar");
  execFileSync("tar", ["-cf", archive, "-C", folder(testInfo, "one", { "train.py": "print('training')\n" }), "."]);
  const uploaded = await page.request.post(`/api/papers/${paperId}/submissions?${query}`, {
    headers: { "content-type": "application/octet-stream" },
    data: fs.readFileSync(archive),
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  await page.goto(`/submissions/${((await uploaded.json()) as { submissionId: string }).submissionId}`);
  await expect(page.getByTestId("submission-archive")).toContainText("one.tar · 1 file");
  await expect(page.getByTestId("submission-archive")).not.toContainText("1 files");

  const { configs } = (await (await page.request.get("/api/judge/configs")).json()) as {
    configs: { id: string; name: string; kind: string }[];
  };
  const model = configs.find((c) => c.name === "o3-mini")!;
  await page.getByTestId("judge-runs").getByTestId("run-judge").click();
  const dialog = page.getByTestId("run-judge-dialog");
  // The dummy judge reads nothing: no warning.
  await dialog.getByTestId("judge-config").selectOption({ label: "Dummy judge (dummy)" });
  await expect(dialog.getByTestId("judge-estimate")).toContainText(/Runs · leaves/);
  await expect(dialog.getByTestId("judge-no-paper-text")).toHaveCount(0);
  await dialog.getByTestId("judge-config").selectOption(model.id);
  const warning = dialog.getByTestId("judge-no-paper-text");
  await expect(warning).toContainText("the judge will grade without the paper");
  await expect(warning.getByRole("link", { name: "A paper imported without its text" })).toHaveAttribute(
    "href",
    `/papers/${paperId}/edit`,
  );
  await screenshots(page, testInfo, "judge-no-paper-text");
});
