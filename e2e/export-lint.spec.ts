import { expect, test } from "./support/fixtures";
import { serializeRubric } from "../lib/rubric/paperbench";
import { DEMO_RUBRIC_PATH, firstLeaf, readDemoRubric, writeFile } from "./support/files";
import { PaperPage } from "./support/pages";
import { AUTHOR, STAFF } from "./support/users";

/**
 * An author's draft that breaks a PaperBench rule imports with a warning, but its export is
 * blocked (409) until forced; a fixed rubric exports again. Runs on its own paper so that the
 * demo paper stays as seeded for the other specs.
 */
test("an author's draft with a leaf without category blocks the export until forced", async ({ asUser }, testInfo) => {
  test.setTimeout(90_000);
  const paperId = `e2e-lint-${Date.now()}`;

  // Staff set up the paper and make the demo author its author, through the API.
  const staff = await asUser(STAFF);
  const created = await staff.request.post("/api/papers", { data: { id: paperId, title: `Lint ${paperId}` } });
  expect(created.status()).toBe(201);
  const added = await staff.request.post(`/api/papers/${paperId}/members`, {
    data: { email: AUTHOR.email, role: "author" },
  });
  expect(added.status()).toBe(201);

  const demo = readDemoRubric();
  const draftTree = structuredClone(demo.tree);
  const leaf = firstLeaf(draftTree);
  leaf.node.task_category = null;
  const draft = serializeRubric(draftTree);
  const draftFile = writeFile(testInfo.outputPath("draft", "rubric.json"), draft);
  const problemPath = `${leaf.path}.task_category`;

  const page = await asUser(AUTHOR);
  const paper = new PaperPage(page, paperId);
  await paper.goto();
  await expect(paper.role).toHaveText("author");
  await expect(paper.empty).toBeVisible();
  await expect(paper.uploadButton).toHaveText("Upload rubric.json");

  // The draft is accepted; the lint (the editor's) shows the error, naming the node.
  expect(await paper.uploadRubric(draftFile)).toBe(200);
  await expect(paper.stats).toHaveText("33 nodes · 21 leaves · depth 4 · revision 1");
  await expect(paper.lintCount).toHaveText("1 error");
  await paper.lint.getByRole("button", { name: /Leaf without category/ }).click();
  await expect(paper.lint).toContainText("Leaf has no task category");
  await expect(paper.lint).toContainText(leaf.node.requirements.slice(0, 40));

  // Export: refused with the problem listed, and no download.
  let downloads = 0;
  page.on("download", () => downloads++);
  const refused = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/papers/${paperId}/rubric/export`);
  await paper.downloadButton.click();
  expect((await refused).status()).toBe(409);
  await expect(paper.exportBlocked).toBeVisible();
  await expect(paper.exportBlocked).toContainText(problemPath);
  await expect(paper.exportBlocked).toContainText("leaf has no task_category");
  expect(downloads).toBe(0);

  const api = await page.request.get(`/api/papers/${paperId}/rubric/export`);
  expect(api.status()).toBe(409);
  const error = (await api.json()).error;
  expect(error.code).toBe("export_blocked");
  expect(error.details.map((d: { path: string }) => d.path)).toContain(problemPath);

  // "Export anyway" downloads the draft exactly as uploaded.
  const forced = await paper.downloadWith(page.getByRole("button", { name: "Export anyway" }));
  expect(forced.bytes.toString("utf8")).toBe(draft);
  await expect(paper.exportBlocked).toHaveCount(0);
  const forcedApi = await page.request.get(`/api/papers/${paperId}/rubric/export?force=1`);
  expect(forcedApi.status()).toBe(200);
  expect(await forcedApi.text()).toBe(draft);

  // Replacing it with a valid rubric makes a new revision that exports without force.
  expect(await paper.uploadRubric(DEMO_RUBRIC_PATH)).toBe(200);
  await expect(paper.stats).toHaveText("33 nodes · 21 leaves · depth 4 · revision 2");
  await expect(paper.lint).toHaveCount(0);
  const fixed = await paper.downloadWith(paper.downloadButton);
  expect(fixed.bytes.equals(demo.bytes)).toBe(true);
  await expect(paper.exportBlocked).toHaveCount(0);
});
