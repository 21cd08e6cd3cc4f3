import { expect, test } from "./support/fixtures";
import { EditorPage, getNodes, rowByText } from "./support/editor";
import { readDemoRubric, writeFile, type RubricJson } from "./support/files";
import { PaperPage } from "./support/pages";
import { STAFF } from "./support/users";

/**
 * The lint runs after an edit's answer (so "Saved" is not kept behind it), yet a save the server
 * holds does not hold the lint: the finding an edit makes shows while the save waits, and goes when
 * the edit is undone. Runs on its own paper.
 */
test("an edit's lint finding shows while its save is held, and goes with the edit", async ({ asUser }, testInfo) => {
  const paperId = `e2e-lint-save-${Date.now()}`;
  const page = await asUser(STAFF);
  expect(
    (await page.request.post("/api/papers", { data: { id: paperId, title: `Lint save ${paperId}` } })).status(),
  ).toBe(201);
  const paper = new PaperPage(page, paperId);
  await paper.goto();
  expect(await paper.uploadRubric(writeFile(testInfo.outputPath("rubric.json"), readDemoRubric().bytes))).toBe(200);

  const { requirements: leaf, weight } = firstOfThreeLeaves(readDemoRubric().tree);
  const editor = new EditorPage(page, paperId);
  // Opened on the leaf (a link to a node reveals it in the tree).
  const { key } = rowByText((await getNodes(page.request, paperId)).nodes, leaf);
  await page.goto(`/papers/${paperId}/rubric?node=${key}`);
  await editor.select(leaf);
  // The row's marker for this finding (a leaf may have others, such as a missing category).
  const marker = editor.row(leaf).locator('[data-testid="lint-marker"][title*="under a tenth of its siblings"]');
  await expect(editor.row(leaf)).toBeVisible();
  await expect(marker).toHaveCount(0);

  // The server answers the save only when the test says so.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route("**/rubric/operations", async (route) => {
    held++;
    await released;
    await route.continue();
  });

  // A weight far below its siblings': a finding, shown while the save is still held.
  await editor.setWeight(leaf, 0.001);
  await expect(editor.saveState).toHaveText("Saving…");
  await expect(marker).toHaveCount(1);
  expect(held).toBe(1);
  await expect(editor.saveState).toHaveText("Saving…");

  release();
  await editor.expectSaved();
  await expect(marker).toHaveCount(1);

  // Saved at once this time: the finding goes with the edit.
  await page.unroute("**/rubric/operations");
  await editor.setWeight(leaf, weight);
  await editor.expectSaved();
  await expect(marker).toHaveCount(0);
});

/** The requirement text and weight of the first leaf of the first node (pre-order) with at least three leaf children. */
function firstOfThreeLeaves(tree: RubricJson): { requirements: string; weight: number } {
  const queue = [tree];
  while (queue.length) {
    const node = queue.shift()!;
    const leaves = node.sub_tasks.filter((c) => c.sub_tasks.length === 0);
    if (leaves.length >= 3) return { requirements: leaves[0].requirements, weight: leaves[0].weight };
    queue.push(...node.sub_tasks);
  }
  throw new Error("the demo rubric has no node with three leaf children");
}
