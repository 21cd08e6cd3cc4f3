import type { Locator } from "@playwright/test";
import { coEditorsOnFreshPaper } from "./support/demo-paper";
import { EditorPage, getNodes, pageErrors, rowByText } from "./support/editor";
import { readDemoRubric } from "./support/files";
import { expect, test } from "./support/fixtures";

/**
 * Two people edit the text of one requirement at the same time, in two browsers: the author puts
 * "[A] " in front, staff put " [S]" at the end. Whoever saves second saves over a text that already
 * changed under them (their editor received the other save live); the server merges the two edits
 * from the text both started from, so both words stay, whichever saves first and whichever way
 * each one edits (the tree's inline editor or the inspector).
 */

interface EditPath {
  /** Opens the edit of the selected row's text; the field shows `text`. */
  begin(editor: EditorPage, text: string): Promise<Locator>;
  /** The key that saves the edit. */
  saveKey: string;
  /** Waits until the saved edit is closed (inline) or shows the saved text (inspector). */
  saved(editor: EditorPage): Promise<void>;
}

const PATHS: Record<"inline editor" | "inspector", EditPath> = {
  "inline editor": {
    async begin(editor, text) {
      await editor.select(text);
      await editor.page.keyboard.press("Enter");
      await expect(editor.inlineEditor).toBeFocused();
      await expect(editor.inlineEditor).toHaveValue(text);
      return editor.inlineEditor;
    },
    saveKey: "Enter",
    async saved(editor) {
      await expect(editor.inlineEditor).toHaveCount(0);
    },
  },
  inspector: {
    async begin(editor, text) {
      await editor.select(text);
      await editor.inspectorRequirements.click();
      await expect(editor.inspectorRequirements).toBeFocused();
      return editor.inspectorRequirements;
    },
    saveKey: "Control+Enter",
    async saved(editor) {
      await expect(editor.page.getByText("unsaved · Ctrl+Enter")).toHaveCount(0);
    },
  },
};

/** Opens the editor on the rubric; a first load on a busy machine can take longer than the default wait. */
async function openEditor(editor: EditorPage): Promise<void> {
  await editor.goto();
  await expect(editor.editor).toBeVisible({ timeout: 60_000 });
}

for (const [pathName, path] of Object.entries(PATHS)) {
  for (const first of ["author", "staff"] as const) {
    test(`in the ${pathName}, both words survive when the ${first} saves first`, async ({ asUser }) => {
      // Two people signed in, two editors open and reopened: more than the default on a busy machine.
      test.setTimeout(240_000);
      const original = readDemoRubric().tree.sub_tasks[0].requirements;
      const { paperId, author, staff } = await coEditorsOnFreshPaper(
        asUser,
        `e2e-concurrent-${pathName.replace(/ /g, "-")}-${first}`,
      );
      const errors = [pageErrors(author.page), pageErrors(staff.page)];
      await openEditor(author);
      await openEditor(staff);
      const { revision } = await getNodes(author.page.request, paperId);

      // Both open the edit and type before either saves.
      const authorField = await path.begin(author, original);
      const staffField = await path.begin(staff, original);
      await authorField.press("Control+Home");
      await authorField.pressSequentially("[A] ");
      await expect(authorField).toHaveValue(`[A] ${original}`);
      await staffField.press("Control+End");
      await staffField.pressSequentially(" [S]");
      await expect(staffField).toHaveValue(`${original} [S]`);

      const [early, earlyField, late, lateField] =
        first === "author" ? [author, authorField, staff, staffField] : [staff, staffField, author, authorField];
      const lateTyped = first === "author" ? `${original} [S]` : `[A] ${original}`;

      await earlyField.press(path.saveKey);
      await path.saved(early);
      await early.expectSaved();
      // The other editor has received that save live, and still holds its own unsaved text.
      await expect(late.revision).toHaveText(`revision ${revision + 1}`);
      await expect(lateField).toHaveValue(lateTyped);

      await lateField.press(path.saveKey);
      await path.saved(late);
      await late.expectSaved();

      const merged = `[A] ${original} [S]`;
      for (const editor of [author, staff]) await expect(editor.row(merged)).toBeVisible();
      rowByText((await getNodes(author.page.request, paperId)).nodes, merged);
      for (const editor of [author, staff]) {
        await openEditor(editor);
        await editor.select(merged);
      }
      expect(errors.flat()).toEqual([]);
    });
  }
}
