import { coEditorsOnFreshPaper } from "./support/demo-paper";
import { getNodes } from "./support/editor";
import { readDemoRubric } from "./support/files";
import { expect, test } from "./support/fixtures";
import { screenshots } from "./support/screenshots";
import { STAFF } from "./support/users";

/**
 * A co-editor deletes the node someone is typing into (issue 21, bug 1): the typed text is kept,
 * the person is told who deleted the node, by name, and gets it back with their text in one click.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

test("an unsaved addition survives a co-editor deleting its node, and comes back with it", async ({
  asUser,
}, testInfo) => {
  const demo = readDemoRubric();
  const { paperId, author, staff } = await coEditorsOnFreshPaper(asUser, "e2e-stranded");
  await author.open();
  await staff.open();
  // The leaves sit under the first level, which opens closed.
  for (const editor of [author, staff]) await editor.page.getByTestId("expand-all").click();
  await author.page.context().grantPermissions(["clipboard-read", "clipboard-write"]);

  const leaf = demo.tree.sub_tasks[2].sub_tasks[0].requirements;
  const typed = `${leaf} Report the mean over five seeds.`;
  await author.select(leaf);
  await author.inspectorRequirements.press("Control+End");
  await author.inspectorRequirements.pressSequentially(" Report the mean over five seeds.");
  await expect(author.inspectorRequirements).toHaveValue(typed);

  // Staff delete the leaf while the author's text is still unsaved.
  await staff.select(leaf);
  await staff.page.keyboard.press("Delete");
  await expect(staff.row(leaf)).toHaveCount(0);

  const notice = author.page.getByTestId("stranded-draft");
  await expect(notice).toBeVisible();
  await expect(notice.getByTestId("stranded-draft-title")).toHaveText(
    `${STAFF.name} deleted the node you were editing. Your text is kept:`,
  );
  await expect(notice.getByTestId("stranded-draft-text")).toHaveValue(typed);
  // No toast names a node by its internal key.
  for (const text of await author.page.locator("[data-sonner-toast]").allInnerTexts()) expect(text).not.toMatch(UUID);
  await screenshots(author.page, testInfo, "stranded-draft");

  // Copy puts the text on the clipboard.
  await notice.getByTestId("stranded-draft-copy").click();
  await expect(notice.getByTestId("stranded-draft-copy")).toHaveText("Copied");
  expect(await author.page.evaluate(() => navigator.clipboard.readText())).toBe(typed);

  // One click brings the node back with the text, for everyone.
  await notice.getByTestId("stranded-draft-restore").click();
  await expect(notice).toHaveCount(0);
  await expect(author.row(typed)).toBeVisible();
  await expect(staff.row(typed)).toBeVisible();
  await author.expectSaved();
  const { nodes } = await getNodes(staff.page.request, paperId);
  expect(nodes.filter((n) => n.requirements === typed)).toHaveLength(1);
  expect(nodes.filter((n) => n.requirements === leaf)).toHaveLength(0);
});

test("after the deleter's own undo, the kept text still goes back into the node", async ({ asUser }) => {
  const demo = readDemoRubric();
  const { author, staff } = await coEditorsOnFreshPaper(asUser, "e2e-stranded-undo");
  await author.open();
  await staff.open();
  // The leaves sit under the first level, which opens closed.
  for (const editor of [author, staff]) await editor.page.getByTestId("expand-all").click();

  const leaf = demo.tree.sub_tasks[2].sub_tasks[1].requirements;
  const typed = `${leaf} On three seeds.`;
  await author.select(leaf);
  await author.inspectorRequirements.press("Control+End");
  await author.inspectorRequirements.pressSequentially(" On three seeds.");
  await staff.select(leaf);
  await staff.page.keyboard.press("Delete");
  const notice = author.page.getByTestId("stranded-draft");
  await expect(notice).toBeVisible();

  // Staff undo: the node is back without the text; the author's notice still holds it.
  await staff.page.keyboard.press("Control+z");
  await expect(author.row(leaf)).toBeVisible();
  await notice.getByTestId("stranded-draft-restore").click();
  await expect(notice).toHaveCount(0);
  await expect(author.row(typed)).toBeVisible();
  await expect(staff.row(typed)).toBeVisible();
});
