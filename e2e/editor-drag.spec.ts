import type { Page } from "@playwright/test";
import fs from "node:fs/promises";
import { DEMO_RUBRIC_PATH, readDemoRubric } from "./support/files";
import { EditorPage, getNodes, pageErrors, parentTextOf } from "./support/editor";
import { expect, test } from "./support/fixtures";
import { AUTHOR, STAFF } from "./support/users";

/**
 * Drag and drop in the rubric editor says where a row will go: the row it would nest in is
 * highlighted ("inside"), or a line at the drop depth is drawn between rows ("between"), and the
 * footer says it in words while the drag lasts. What is dropped lands where the words said.
 */

const demo = readDemoRubric().tree;
const ROOT = demo.requirements;
const [METHOD, SETUP, EXPERIMENTS, RESULTS] = demo.sub_tasks;

/** The start of a text as the footer quotes it (cut between words, at most 40 characters). */
const quoted = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= 40 ? `'${flat}'` : `'${flat.slice(0, 20)}`;
};

async function paperWithDemoRubric(staff: Page, paperId: string): Promise<void> {
  expect((await staff.request.post("/api/papers", { data: { id: paperId, title: `Drag ${paperId}` } })).status()).toBe(
    201,
  );
  expect(
    (
      await staff.request.post(`/api/papers/${paperId}/members`, { data: { email: AUTHOR.email, role: "author" } })
    ).status(),
  ).toBe(201);
  const uploaded = await staff.request.put(`/api/papers/${paperId}/rubric`, {
    headers: { "content-type": "application/json" },
    data: await fs.readFile(DEMO_RUBRIC_PATH),
  });
  expect(uploaded.status()).toBe(200);
}

/**
 * Presses on the row's text and moves the pointer to (`x`, `y`) in the target row, in small steps
 * (HTML5 drag events). Between rows, `x` picks the depth: react-arborist reads it in indents (18 px).
 */
async function dragOver(page: Page, editor: EditorPage, from: string, to: string, x: number, y: number): Promise<void> {
  const source = await editor.rowText(from).boundingBox();
  const target = await editor.row(to).boundingBox();
  expect(source && target).toBeTruthy();
  await page.mouse.move(source!.x + 20, source!.y + source!.height / 2);
  await page.mouse.down();
  await page.mouse.move(source!.x + 30, source!.y + source!.height / 2 + 6, { steps: 4 });
  // The drag has begun when the footer speaks.
  await expect(page.getByTestId("drop-note")).toBeVisible();
  await page.mouse.move(target!.x + x, target!.y + y, { steps: 12 });
  // The tree may scroll while dragging near its edge: aim again at where the row is now, and end with
  // one more event where the pointer rests (a loaded machine may coalesce the last ones).
  const settled = (await editor.row(to).boundingBox())!;
  await page.mouse.move(settled.x + x, settled.y + y, { steps: 4 });
  await page.waitForTimeout(100);
  await page.mouse.move(settled.x + x + 1, settled.y + y, { steps: 2 });
}

test("a drag shows 'inside' or 'between', says it in the footer, and drops there", async ({ asUser }) => {
  test.setTimeout(120_000);
  const paperId = `e2e-drag-${Date.now()}`;
  await paperWithDemoRubric(await asUser(STAFF), paperId);
  const page = await asUser(AUTHOR);
  const errors = pageErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  const editor = new EditorPage(page, paperId);
  await editor.open();
  const note = page.getByTestId("drop-note");
  const inside = page.locator('[data-testid="tree-row"][data-drop-target="inside"]');
  const line = page.getByTestId("drop-line");
  await expect(note).toHaveCount(0);

  // ---- The middle of a row with sub-tasks: "inside". The row is highlighted, no line is drawn.
  await dragOver(page, editor, EXPERIMENTS.requirements, METHOD.requirements, 160, 16);
  await expect(inside).toHaveCount(1);
  await expect(inside).toHaveAttribute("data-key", (await editor.row(METHOD.requirements).getAttribute("data-key"))!);
  await expect(line).toHaveCount(0);
  await expect(note).toHaveAttribute("data-kind", "inside");
  await expect(note).toContainText(`Move ${quoted(EXPERIMENTS.requirements)}`);
  await expect(note).toContainText(`inside ${quoted(METHOD.requirements)}`);
  await page.mouse.up();
  await expect(note).toHaveCount(0);
  await expect.poll(() => parentTextOf(page.request, paperId, EXPERIMENTS.requirements)).toBe(METHOD.requirements);
  await expect(editor.row(EXPERIMENTS.requirements)).toHaveAttribute("aria-level", "3");

  // ---- The top edge of the row after the method's open subtree: one line, two meanings, told apart
  // by the pointer's x. Far right: the method's last child's depth, so under the method.
  await dragOver(page, editor, RESULTS.requirements, SETUP.requirements, 160, 3);
  await expect(line).toHaveCount(1);
  await expect(line).toHaveAttribute("data-level", "2");
  await expect(inside).toHaveCount(0);
  await expect(note).toHaveAttribute("data-kind", "between");
  await expect(note).toContainText(`(under ${quoted(METHOD.requirements)}`);
  // At the left edge: the shallowest depth there, after the method, under the root.
  const target = (await editor.row(SETUP.requirements).boundingBox())!;
  await page.mouse.move(target.x + 8, target.y + 3, { steps: 6 });
  await page.waitForTimeout(200);
  await page.mouse.move(target.x + 9, target.y + 3, { steps: 2 });
  await expect(line).toHaveAttribute("data-level", "1");
  await expect(note).toHaveAttribute("data-kind", "between");
  await expect(note).toContainText(`Move ${quoted(RESULTS.requirements)}`);
  await expect(note).toContainText(`after ${quoted(METHOD.requirements)}`);
  await expect(note).toContainText(`(under ${quoted(ROOT)}`);
  await expect(inside).toHaveCount(0);
  await page.mouse.up();
  await expect.poll(() => parentTextOf(page.request, paperId, RESULTS.requirements)).toBe(ROOT);
  // Saved in that order: the root's children, as the server lists them, read top to bottom.
  const { nodes } = await getNodes(page.request, paperId);
  const rootKey = nodes.find((n) => n.parentKey === null)!.key;
  const order = nodes
    .filter((n) => n.parentKey === rootKey)
    .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
    .map((n) => n.requirements);
  expect(order).toEqual([METHOD.requirements, RESULTS.requirements, SETUP.requirements]);
  await expect(editor.rows.and(page.locator('[aria-level="2"]')).getByTestId("row-text")).toHaveText(order);

  // ---- Between two leaves of an open subtree: the line is drawn at their depth, and the drop nests there.
  await editor.row(SETUP.requirements).getByRole("button", { name: "Expand" }).click();
  const [firstSetup, secondSetup] = SETUP.sub_tasks;
  await expect(editor.row(secondSetup.requirements)).toBeVisible();
  await dragOver(page, editor, RESULTS.requirements, secondSetup.requirements, 160, 3);
  await expect(line).toHaveAttribute("data-level", "2");
  await expect(note).toHaveAttribute("data-kind", "between");
  await expect(note).toContainText(`after ${quoted(firstSetup.requirements)}`);
  await expect(note).toContainText(`(under ${quoted(SETUP.requirements)}`);
  await page.mouse.up();
  await expect.poll(() => parentTextOf(page.request, paperId, RESULTS.requirements)).toBe(SETUP.requirements);
  await expect(editor.row(RESULTS.requirements)).toHaveAttribute("aria-level", "3");
  expect(errors).toEqual([]);
});
