import { expect, test } from "./support/fixtures";
import { EditorPage, getNodes, rowByText } from "./support/editor";
import { readDemoRubric, writeFile } from "./support/files";
import { PaperPage } from "./support/pages";
import { STAFF } from "./support/users";

/**
 * Leaving the editor while a change waits for the server asks first; once it is saved, the page
 * closes without asking. Runs on its own paper.
 */
test("leaving with a change the server has not answered asks first, and not once it is saved", async ({
  asUser,
}, testInfo) => {
  const paperId = `e2e-leave-${Date.now()}`;
  const page = await asUser(STAFF);
  expect((await page.request.post("/api/papers", { data: { id: paperId, title: `Leave ${paperId}` } })).status()).toBe(
    201,
  );
  const paper = new PaperPage(page, paperId);
  await paper.goto();
  expect(await paper.uploadRubric(writeFile(testInfo.outputPath("rubric.json"), readDemoRubric().bytes))).toBe(200);
  const leaf = firstLeaf(readDemoRubric().tree);
  const editor = new EditorPage(page, paperId);
  // Opened on the leaf (a link to a node reveals it in the tree).
  const { key } = rowByText((await getNodes(page.request, paperId)).nodes, leaf.requirements);
  await page.goto(`/papers/${paperId}/rubric?node=${key}`);
  await editor.select(leaf.requirements);

  // The server answers the save only when the test says so.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/rubric/operations", async (route) => {
    await released;
    await route.continue();
  });
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss(); // stay on the page
  });

  await editor.setWeight(leaf.requirements, leaf.weight + 1);
  await expect(editor.saveState).toHaveText("Saving…");
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toEqual(["beforeunload"]);
  expect(page.isClosed()).toBe(false);

  release();
  await editor.expectSaved();
  const closed = new Promise<void>((resolve) => page.once("close", () => resolve()));
  await page.close({ runBeforeUnload: true });
  await closed;
  expect(asked).toEqual(["beforeunload"]);
});

function firstLeaf(tree: ReturnType<typeof readDemoRubric>["tree"]): { requirements: string; weight: number } {
  let node = tree;
  while (node.sub_tasks.length) node = node.sub_tasks[0];
  return { requirements: node.requirements, weight: node.weight };
}
