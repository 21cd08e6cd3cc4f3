import type { Locator, Page } from "@playwright/test";
import { paperWithDemoRubric } from "./support/demo-paper";
import { EditorPage } from "./support/editor";
import { readDemoRubric } from "./support/files";
import { expect, test } from "./support/fixtures";
import { screenshots } from "./support/screenshots";
import { STAFF } from "./support/users";

/**
 * What a newcomer tripped over in the editor (issue 21, friction): a toolbar that moves when the
 * search is used, a cut-off placeholder, side-panel tabs on two lines, "Expand to depth" short of
 * the footer's depth, an inline editor over the next row, and no warning before a signed-off
 * rubric goes back to draft.
 */

const SIZES = [
  [1440, 900],
  [1024, 768],
] as const;

const height = async (l: Locator) => (await l.boundingBox())!.height;

/** Whether the input's placeholder fits its box, measured in the input's own font. */
function placeholderFits(input: Locator): Promise<boolean> {
  return input.evaluate((el: HTMLInputElement) => {
    const style = getComputedStyle(el);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return ctx.measureText(el.placeholder).width <= room;
  });
}

async function openOwnPaper(page: Page, name: string): Promise<EditorPage> {
  const paperId = `e2e-friction-${name}-${Date.now()}`;
  await paperWithDemoRubric(page, paperId);
  const editor = new EditorPage(page, paperId);
  await editor.open();
  return editor;
}

test("the search keeps the toolbar still and its placeholder whole; the side-panel tabs stay on one line", async ({
  asUser,
}, testInfo) => {
  const editor = await openOwnPaper(await asUser(STAFF), "toolbar");
  const { page } = editor;
  const toolbar = page.getByTestId("tree-toolbar");
  const search = page.getByTestId("search-input");
  const tabs = page.getByRole("tablist", { name: "Side panel" });
  for (const [width, h] of SIZES) {
    await page.setViewportSize({ width, height: h });
    await expect(search).toBeVisible();
    expect(await placeholderFits(search), `placeholder at ${width}`).toBe(true);
    const before = await height(toolbar);
    const searchBox = (await search.boundingBox())!;
    await search.focus();
    expect(await height(toolbar), `focused at ${width}`).toBe(before);
    await search.fill("clipping");
    await expect(page.getByTestId("search-count")).toBeVisible();
    expect(await height(toolbar), `searching at ${width}`).toBe(before);
    expect((await search.boundingBox())!.y).toBe(searchBox.y);
    // Every tab on one line (the selected one named, the others by icon and tooltip).
    const tops = await tabs
      .getByRole("tab")
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(new Set(tops).size, `tab lines at ${width}`).toBe(1);
    await search.fill("");
    await page.keyboard.press("Escape");
  }
  await search.fill("clipping");
  await screenshots(page, testInfo, "editor-toolbar-searching");
  // The tabs keep their names for screen readers.
  await expect(tabs.getByRole("tab", { name: "Versions" })).toBeVisible();
});

test("Expand to depth offers every level the footer counts, and the last one opens everything", async ({ asUser }) => {
  const demo = readDemoRubric();
  const editor = await openOwnPaper(await asUser(STAFF), "depth");
  const { page } = editor;
  await expect(page.getByTestId("editor-depth")).toHaveText("depth 4");
  const options = await page.getByTestId("expand-depth").locator("option").allInnerTexts();
  expect(options).toEqual(["Expand to depth…", "Depth 2", "Depth 3", "Depth 4 (all)"]);
  const deepest = demo.tree.sub_tasks[0].sub_tasks[0].sub_tasks[0].requirements;
  await expect(editor.row(deepest)).toHaveCount(0);
  await page.getByTestId("expand-depth").selectOption({ label: "Depth 4 (all)" });
  await expect(editor.row(deepest)).toBeVisible();
  await page.getByTestId("expand-depth").selectOption({ label: "Depth 2" });
  await expect(editor.row(demo.tree.sub_tasks[0].requirements)).toBeVisible();
  await expect(editor.row(demo.tree.sub_tasks[0].sub_tasks[0].requirements)).toHaveCount(0);
});

test("the inline editor stays within its row, however many lines are typed", async ({ asUser }, testInfo) => {
  const demo = readDemoRubric();
  const editor = await openOwnPaper(await asUser(STAFF), "inline");
  const { page } = editor;
  const target = demo.tree.sub_tasks[1].requirements;
  const next = demo.tree.sub_tasks[2].requirements;
  await editor.select(target);
  await page.keyboard.press("Enter");
  await expect(editor.inlineEditor).toBeFocused();
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("second line");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("third line");
  await expect(editor.inlineEditor).toHaveValue(`${target}\nsecond line\nthird line`);
  const box = (await editor.inlineEditor.boundingBox())!;
  const below = (await editor.row(next).boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(below.y);
  await screenshots(page, testInfo, "inline-editor-multiline");
  await page.keyboard.press("Escape");
  await expect(editor.inlineEditor).toHaveCount(0);
});

test("before the first edit of a signed-off rubric, the editor says it will go back to draft", async ({
  asUser,
}, testInfo) => {
  const demo = readDemoRubric();
  const editor = await openOwnPaper(await asUser(STAFF), "signed");
  const { page } = editor;
  const revision = Number((await editor.revision.innerText()).replace("revision ", ""));
  const signed = await page.request.post(`/api/papers/${editor.paperId}/rubric/review`, {
    data: { action: "sign_off", revision },
  });
  expect(signed.status()).toBe(200);
  await editor.open();
  const notice = page.getByTestId("signed-off-notice");
  await expect(notice).toHaveText(
    `Signed off at revision ${revision}. Any change to its nodes returns the rubric to draft, and its authors are told.`,
  );
  await screenshots(page, testInfo, "signed-off-notice");

  // The first change does what it said: a draft again, and the notice goes.
  const target = demo.tree.sub_tasks[1].requirements;
  await editor.select(target);
  await editor.setWeight(target, 7);
  await expect(page.getByTestId("review-status-label")).toHaveText("Draft");
  await expect(notice).toHaveCount(0);
});
