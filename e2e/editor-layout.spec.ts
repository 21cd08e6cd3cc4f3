import type { Locator, Page } from "@playwright/test";
import { readDemoRubric } from "./support/files";
import { EditorPage, pageErrors } from "./support/editor";
import { expect, test } from "./support/fixtures";
import { listPaperGradings, ReviewPage } from "./support/review";
import { DEMO_PAPER, STAFF } from "./support/users";

/**
 * The editor and the review page at the two window sizes the studio is checked at: they fit the
 * window (no page scrollbar), the Code-Dev toggle shows its state without making the header wrap,
 * every side panel tab is in sight, the @mention list opens inside the window, and the assign
 * dialog cuts requirement text between words. Read-only: nothing here changes the demo paper.
 */

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;

const demo = readDemoRubric().tree;

/** The page is no taller than the window: no page scrollbar. */
async function expectFitsWindow(page: Page): Promise<void> {
  const { scrollHeight, innerHeight } = await page.evaluate(() => ({
    scrollHeight: document.scrollingElement!.scrollHeight,
    innerHeight: window.innerHeight,
  }));
  expect(scrollHeight, "page height").toBeLessThanOrEqual(innerHeight);
}

/** The element lies wholly inside `outer` (both on screen). */
async function expectInside(
  inner: Locator,
  outer: { x: number; y: number; width: number; height: number },
  what: string,
) {
  const box = (await inner.boundingBox())!;
  expect(box.x, `${what}: left`).toBeGreaterThanOrEqual(outer.x - 0.5);
  expect(box.y, `${what}: top`).toBeGreaterThanOrEqual(outer.y - 0.5);
  expect(box.x + box.width, `${what}: right`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
  expect(box.y + box.height, `${what}: bottom`).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
}

for (const size of SIZES) {
  test(`at ${size.width}x${size.height} the editor fits the window, shows the Code-Dev state and every tab`, async ({
    asUser,
  }) => {
    const page = await asUser(STAFF);
    const errors = pageErrors(page);
    await page.setViewportSize(size);
    const editor = new EditorPage(page, DEMO_PAPER.id);
    await editor.open();
    await expectFitsWindow(page);

    // Every tab of the side panel is in sight, none scrolled away or cut.
    const panel = (await page.getByTestId("side-panel").boundingBox())!;
    for (const tab of ["inspector", "comments", "lint", "summary", "versions", "deleted"] as const) {
      await expectInside(editor.tab(tab), panel, `tab ${tab}`);
    }
    // The tree keeps room for its text beside the panel.
    const tree = (await editor.tree.boundingBox())!;
    expect(tree.width, "tree width").toBeGreaterThanOrEqual(size.width * 0.5);

    // The Code-Dev toggle: pressed state said and seen; the header stays on one line.
    const toggle = page.getByTestId("code-dev-toggle");
    const header = page.locator("header", { has: toggle });
    const headerHeight = (await header.boundingBox())!.height;
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    const off = await toggle.evaluate((el) => getComputedStyle(el).backgroundColor);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    const on = await toggle.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(on, "pressed background").not.toBe(off);
    expect((await header.boundingBox())!.height, "header height in Code-Dev").toBe(headerHeight);
    await expectFitsWindow(page);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "false");

    // The Deleted tab opens and the page still fits.
    await editor.tab("deleted").click();
    await expect(editor.tab("deleted")).toHaveAttribute("aria-selected", "true");
    await expectFitsWindow(page);

    // The @mention list of a node's comment box opens inside the window and inside its panel.
    await editor.select(demo.sub_tasks[0].requirements);
    const box = page.getByTestId("comment-new");
    await box.scrollIntoViewIfNeeded();
    await box.click();
    await box.pressSequentially("@");
    const list = page.getByTestId("mention-options");
    await expect(list).toBeVisible();
    const tabpanel = (await page.getByRole("tabpanel").boundingBox())!;
    await expectInside(list, { x: 0, y: 0, ...size }, "mention list in the window");
    await expectInside(list, tabpanel, "mention list in the panel");
    await page.keyboard.press("Escape");
    await expectFitsWindow(page);
    expect(errors).toEqual([]);
  });

  test(`at ${size.width}x${size.height} the review page fits the window and the assign dialog cuts text between words`, async ({
    asUser,
  }) => {
    const page = await asUser(STAFF);
    const errors = pageErrors(page);
    await page.setViewportSize(size);
    const [grading] = (await listPaperGradings(page.request, DEMO_PAPER.id)).filter((g) => g.kind === "judge");
    const review = new ReviewPage(page, grading.id);
    await review.open();
    await expectFitsWindow(page);

    // The page opens on a leaf: the dialog offers its subtree, its text cut between words.
    await page.getByTestId("assign-button").click();
    const label = page.getByTestId("assign-subtree-label");
    await expect(label).toHaveAttribute("title", /\S/);
    const full = (await label.getAttribute("title"))!.replace(/\s+/g, " ").trim();
    const shown = (await label.textContent())!.replace(/^Selected subtree: /, "");
    if (shown.endsWith("…")) {
      const kept = shown.slice(0, -1);
      expect(full.startsWith(kept), "a prefix of the requirement").toBe(true);
      expect(/[\s,;:.]/.test(full[kept.length]), `cut between words: "${shown}"`).toBe(true);
    } else {
      expect(shown).toBe(full);
    }
    // Not clipped by CSS either: the label is shown whole.
    expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    expect(errors).toEqual([]);
  });
}
