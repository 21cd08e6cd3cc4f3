import path from "node:path";
import type { Page } from "@playwright/test";
import { serializeRubric } from "../lib/rubric/paperbench";
import { allRequirements, firstLeaf, readDemoRubric, writeFile, type RubricJson } from "./support/files";
import { expect, test } from "./support/fixtures";
import { PaperPage } from "./support/pages";
import { STAFF } from "./support/users";

/**
 * Replacing a paper's rubric asks first: the paper page's "Replace from rubric.json" and the New
 * paper page's folder import show the diff against the live rubric; Cancel writes nothing, the
 * confirmation replaces it as one new revision.
 */
test.describe.configure({ mode: "serial" });

const paperId = `e2e-confirm-${Date.now()}`;
const demo = readDemoRubric();

/** The demo rubric with one weight changed, one subtree removed and one leaf added. */
function editedRubric(): { tree: RubricJson; removed: number } {
  const tree = structuredClone(demo.tree);
  tree.sub_tasks[0].weight = 9;
  const removedNode = tree.sub_tasks[1].sub_tasks.pop()!;
  const leaf = structuredClone(firstLeaf(tree.sub_tasks[2]).node);
  tree.sub_tasks[2].sub_tasks.push({
    ...leaf,
    id: "e2e-added-leaf",
    requirements: "An added requirement about the learning-rate schedule",
    sub_tasks: [],
  });
  return { tree, removed: allRequirements(removedNode).length };
}
const edited = editedRubric();

async function expectDiffShown(page: Page): Promise<void> {
  const dialog = page.getByTestId("replace-rubric-dialog");
  await expect(dialog).toBeVisible();
  const summary = dialog.getByTestId("diff-summary");
  await expect(summary.locator('[data-count="added"]')).toHaveText("1 added");
  await expect(summary.locator('[data-count="removed"]')).toHaveText(`${edited.removed} removed`);
  await expect(summary.locator('[data-count="changed"]')).toHaveText("1 changed");
  await expect(dialog.getByTestId("diff-added")).toContainText("An added requirement about the learning-rate schedule");
  await expect(dialog.getByTestId("diff-weight")).toContainText("9");
}

async function shoot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (!dir) return;
  for (const [w, h] of [
    [1440, 900],
    [1024, 768],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(dir, `${name}-${w}x${h}.png`) });
  }
}

test("Upload rubric.json over a rubric shows the changes and asks: cancel keeps it, confirm replaces it", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  expect(
    (await page.request.post("/api/papers", { data: { id: paperId, title: `Confirm ${paperId}` } })).status(),
  ).toBe(201);
  const paper = new PaperPage(page, paperId);
  await paper.goto();
  // The first upload has nothing to replace: no question.
  expect(await paper.uploadRubric(writeFile(testInfo.outputPath("first", "rubric.json"), demo.bytes))).toBe(200);
  await expect(paper.stats).toContainText("revision 1");
  await expect(paper.replaceDialog).toHaveCount(0);

  const file = writeFile(testInfo.outputPath("edited", "rubric.json"), serializeRubric(edited.tree));
  let puts = 0;
  page.on("request", (r) => {
    if (r.method() === "PUT") puts++;
  });
  await paper.fileInput.setInputFiles(file);
  await expectDiffShown(page);
  await expect(paper.replaceDialog.getByTestId("replace-confirm")).toHaveText("Replace revision 1");
  await shoot(page, "replace-rubric-dialog");
  await paper.replaceDialog.getByTestId("replace-cancel").click();
  await expect(paper.replaceDialog).toHaveCount(0);
  expect(puts).toBe(0);
  await page.reload();
  await expect(paper.stats).toContainText("revision 1");
  expect((await (await page.request.get(`/api/papers/${paperId}/rubric`)).json()).tree.sub_tasks[0].weight).toBe(
    demo.tree.sub_tasks[0].weight,
  );

  // Again, and confirmed: one new revision with the file's tree.
  await paper.fileInput.setInputFiles(file);
  await expectDiffShown(page);
  const put = page.waitForResponse(
    (r) => r.request().method() === "PUT" && new URL(r.url()).pathname === `/api/papers/${paperId}/rubric`,
  );
  await paper.replaceDialog.getByTestId("replace-confirm").click();
  expect((await put).status()).toBe(200);
  await expect(paper.replaceDialog).toHaveCount(0);
  await expect(paper.stats).toContainText("revision 2");
  expect((await (await page.request.get(`/api/papers/${paperId}/rubric`)).json()).tree.sub_tasks[0].weight).toBe(9);
});

test("a confirmation made stale by another change shows the fresh diff instead of replacing", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const paper = new PaperPage(page, paperId);
  await paper.goto();
  await expect(paper.stats).toContainText("revision 2");
  await paper.fileInput.setInputFiles(writeFile(testInfo.outputPath("back", "rubric.json"), demo.bytes));
  await expect(paper.replaceDialog.getByTestId("replace-confirm")).toHaveText("Replace revision 2");
  // Someone replaces the rubric meanwhile (a script, with replace=true).
  const other = structuredClone(edited.tree);
  other.sub_tasks[0].weight = 4;
  const meanwhile = await page.request.put(`/api/papers/${paperId}/rubric?replace=true`, {
    headers: { "content-type": "application/json" },
    data: serializeRubric(other),
  });
  expect(meanwhile.status()).toBe(200);
  await paper.replaceDialog.getByTestId("replace-confirm").click();
  await expect(paper.replaceDialog.getByTestId("replace-changed-meanwhile")).toContainText("now revision 3");
  await expect(paper.replaceDialog.getByTestId("replace-confirm")).toHaveText("Replace revision 3");
  expect((await (await page.request.get(`/api/papers/${paperId}/rubric`)).json()).tree.sub_tasks[0].weight).toBe(4);
  await paper.replaceDialog.getByTestId("replace-confirm").click();
  await expect(paper.replaceDialog).toHaveCount(0);
  await expect(paper.stats).toContainText("revision 4");
});

test("New paper: a folder whose paper exists shows the changes and asks: cancel keeps it, confirm replaces it", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  const folder = testInfo.outputPath(paperId);
  writeFile(path.join(folder, "rubric.json"), serializeRubric(edited.tree));
  writeFile(path.join(folder, "config.yaml"), `id: ${paperId}\ntitle: Renamed by the folder\n`);
  const before = (await (await page.request.get(`/api/papers/${paperId}/rubric`)).json()).revision as number;
  // The live rubric is the demo one again, so the folder's diff is the edited one's.
  const reset = await page.request.put(`/api/papers/${paperId}/rubric?expectedRevision=${before}`, {
    headers: { "content-type": "application/json" },
    data: demo.bytes,
  });
  expect(reset.status()).toBe(200);
  const live = before + 1;

  await page.goto("/papers/new");
  const picker = page.getByLabel("Paper folder");
  await picker.setInputFiles(folder);
  await expectDiffShown(page);
  const dialog = page.getByTestId("replace-rubric-dialog");
  await expect(dialog.getByTestId("replace-paper-fields")).toHaveText("The folder also changes the paper's title.");
  await expect(page.getByTestId("import-folder-name")).toHaveText(paperId);
  await shoot(page, "import-folder-dialog");
  await dialog.getByTestId("replace-cancel").click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/papers\/new$/);
  const kept = await (await page.request.get(`/api/papers/${paperId}/rubric`)).json();
  expect([kept.revision, kept.tree.sub_tasks[0].weight]).toEqual([live, demo.tree.sub_tasks[0].weight]);
  expect((await (await page.request.get(`/api/papers/${paperId}`)).json()).paper.title).toBe(`Confirm ${paperId}`);

  await picker.setInputFiles(folder);
  await expectDiffShown(page);
  await dialog.getByTestId("replace-confirm").click();
  await page.waitForURL(`**/papers/${paperId}`);
  const paper = new PaperPage(page, paperId);
  await expect(paper.title).toHaveText("Renamed by the folder");
  await expect(paper.stats).toContainText(`revision ${live + 1}`);
});
