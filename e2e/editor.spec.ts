import type { Page } from "@playwright/test";
import fs from "node:fs/promises";
import { blockingExportWarnings } from "../lib/rubric/lint";
import { parseRubricJson } from "../lib/rubric/paperbench";
import { DEMO_RUBRIC_PATH, readDemoRubric, type RubricJson } from "./support/files";
import { EditorPage, getNodes, pageErrors, parentTextOf, rowByText } from "./support/editor";
import { expect, test } from "./support/fixtures";
import { holdFirstRead } from "./support/held-read";
import { AUTHOR, DEMO_PAPER, GRADER, STAFF } from "./support/users";

/**
 * The rubric editor (`/papers/<id>/rubric`): an author builds a rubric from nothing with the
 * keyboard and the mouse and exports it; a grader only reads; a change the server refuses is
 * rolled back with its reason. Each test that writes runs on a paper of its own, so that the demo
 * paper stays as seeded for the other specs.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Staff create a paper and make the demo author its author, through the API. */
async function paperForAuthor(staff: Page, paperId: string): Promise<void> {
  const created = await staff.request.post("/api/papers", { data: { id: paperId, title: `Editor ${paperId}` } });
  expect(created.status()).toBe(201);
  const added = await staff.request.post(`/api/papers/${paperId}/members`, {
    data: { email: AUTHOR.email, role: "author" },
  });
  expect(added.status()).toBe(201);
}

/** A paper of its own for a test, with the demo rubric, and the demo author as its author. */
async function paperWithDemoRubric(staff: Page, paperId: string): Promise<void> {
  await paperForAuthor(staff, paperId);
  const uploaded = await staff.request.put(`/api/papers/${paperId}/rubric`, {
    headers: { "content-type": "application/json" },
    data: await fs.readFile(DEMO_RUBRIC_PATH),
  });
  expect(uploaded.status()).toBe(200);
}

const ROOT = "Reproduce the adaptive clipping paper";
const METHOD = "Implement the method";
const CLIPPING = "Implement the clipping rule";
const LOOP = "Implement the training loop";
const EXPERIMENTS = "Run the experiments";
const TRAIN = "Train the small transformer";
const REPORT = "Report the final accuracy";
const ANALYSE = "Analyse the results";
const COMPARE = "Compare the loss curves with the paper";

/** Categories the author gives each leaf (task_category, finegrained_task_category). */
const LEAF_CATEGORIES: Record<string, [string, string]> = {
  [CLIPPING]: ["Code Development", "Method Implementation"],
  [LOOP]: ["Code Development", "Experimental Setup"],
  [TRAIN]: ["Code Execution", "Experimental Setup"],
  [REPORT]: ["Result Analysis", "Evaluation, Metrics & Benchmarking"],
  [COMPARE]: ["Result Analysis", "Logging, Analysis & Presentation"],
};

/** The tree in its final form, as PaperBench fields without ids. */
interface Shape {
  requirements: string;
  weight: number;
  task_category: string | null;
  finegrained_task_category: string | null;
  sub_tasks: Shape[];
}
const leaf = (requirements: string, weight = 1): Shape => ({
  requirements,
  weight,
  task_category: LEAF_CATEGORIES[requirements][0],
  finegrained_task_category: LEAF_CATEGORIES[requirements][1],
  sub_tasks: [],
});
const node = (requirements: string, weight: number, sub_tasks: Shape[]): Shape => ({
  requirements,
  weight,
  task_category: null,
  finegrained_task_category: null,
  sub_tasks,
});
const shapeOf = (t: RubricJson): Shape => ({
  requirements: t.requirements,
  weight: t.weight,
  task_category: t.task_category,
  finegrained_task_category: t.finegrained_task_category,
  sub_tasks: t.sub_tasks.map(shapeOf),
});
const idsOf = (t: RubricJson): string[] => [t.id, ...t.sub_tasks.flatMap(idsOf)];

test("an author builds a rubric from nothing, checks it, versions it and exports a file PaperBench accepts", async ({
  asUser,
}) => {
  test.setTimeout(120_000);
  const paperId = `e2e-editor-${Date.now()}`;
  await paperForAuthor(await asUser(STAFF), paperId);

  const page = await asUser(AUTHOR);
  const errors = pageErrors(page);
  const editor = new EditorPage(page, paperId);
  const keyboard = page.keyboard;
  await editor.open();

  // ---- From nothing: the empty state offers to start; the new root opens in edit mode.
  await expect(editor.empty).toContainText("This paper has no rubric yet");
  await editor.startFromScratch.click();
  await editor.typeInline(ROOT);
  await expect(editor.rows).toHaveCount(1);
  await expect(editor.readOnlyBadge).toHaveCount(0);

  // ---- Children and siblings from the keyboard: a = add child, s = add sibling, typed inline.
  await keyboard.press("a");
  await editor.typeInline(METHOD);
  await keyboard.press("a");
  await editor.typeInline(CLIPPING);
  await keyboard.press("s");
  await editor.typeInline(LOOP);
  await expect(editor.row(CLIPPING)).toHaveAttribute("aria-level", "3");
  await expect(editor.row(LOOP)).toHaveAttribute("aria-level", "3");

  // ... and with the toolbar buttons.
  await editor.select(METHOD);
  await editor.button("add-sibling").click();
  await editor.typeInline(EXPERIMENTS);
  await editor.button("add-child").click();
  await editor.typeInline(TRAIN);
  // A sibling left empty (Esc keeps the node, without text): a lint finding to fix later.
  await keyboard.press("s");
  await expect(editor.inlineEditor).toBeFocused();
  await keyboard.press("Escape");
  await expect(editor.inlineEditor).toHaveCount(0);
  await expect(editor.rows).toHaveCount(7);
  await expect(editor.tree.getByText("Empty: press Enter to write the requirement")).toBeVisible();

  // A subtree under the root, to be dragged under "Run the experiments".
  await editor.select(ROOT);
  await keyboard.press("a");
  await editor.typeInline(ANALYSE);
  await keyboard.press("a");
  await editor.typeInline(COMPARE);
  await expect(editor.rows).toHaveCount(9);
  await editor.expectSaved();

  // Esc cancels an edit of existing text.
  await editor.select(LOOP);
  await keyboard.press("Enter");
  await expect(editor.inlineEditor).toHaveValue(LOOP);
  await keyboard.type(" (draft)");
  await keyboard.press("Escape");
  await expect(editor.inlineEditor).toHaveCount(0);
  await expect(editor.row(LOOP)).toBeVisible();
  await expect(editor.row(`${LOOP} (draft)`)).toHaveCount(0);

  let nodes = (await getNodes(page.request, paperId)).nodes;
  expect(nodes).toHaveLength(9);
  expect(nodes.filter((n) => n.requirements === "")).toHaveLength(1);
  expect(nodes.every((n) => UUID.test(n.nodeId))).toBe(true);
  expect(await parentTextOf(page.request, paperId, ANALYSE)).toBe(ROOT);
  expect(await parentTextOf(page.request, paperId, COMPARE)).toBe(ANALYSE);

  // ---- Weights and categories in the inspector; shares follow at once.
  await editor.select(METHOD);
  await editor.setWeight(METHOD, 3);
  // Root children weigh 3 (method), 1 (experiments), 1 (analyse).
  await expect(editor.inspectorShare).toHaveText("60.0%");
  await editor.select(CLIPPING);
  await editor.setWeight(CLIPPING, 2);
  await expect(editor.row(CLIPPING).getByTestId("row-share")).toHaveText("40.0%");
  await expect(editor.row(LOOP).getByTestId("row-share")).toHaveText("20.0%");
  await editor.inspectorCategory.selectOption(LEAF_CATEGORIES[CLIPPING][0]);
  await editor.inspectorFinegrained.selectOption(LEAF_CATEGORIES[CLIPPING][1]);
  await expect(editor.row(CLIPPING).getByTestId("row-category")).toHaveText("Code Dev");
  await editor.expectSaved();

  // ---- Drag the "Analyse" subtree onto the middle of "Run the experiments": it becomes its first child.
  await editor.rowText(ANALYSE).dragTo(editor.row(EXPERIMENTS), { targetPosition: { x: 160, y: 16 } });
  await expect(editor.row(ANALYSE)).toHaveAttribute("aria-level", "3");
  await expect(editor.row(COMPARE)).toHaveAttribute("aria-level", "4");
  await editor.expectSaved();
  await expect.poll(() => parentTextOf(page.request, paperId, ANALYSE)).toBe(EXPERIMENTS);
  expect(await parentTextOf(page.request, paperId, COMPARE)).toBe(ANALYSE);
  // Root children are now 3 and 1: the method holds 75%.
  await expect(editor.row(METHOD).getByTestId("row-share")).toHaveText("75.0%");

  // ---- Undo (Ctrl+Z) puts the subtree back under the root; redo (Shift+Ctrl+Z) moves it again.
  await editor.rowText(ROOT).click();
  await expect(editor.button("undo-button")).toHaveAttribute("title", "Undo: Move a node");
  await keyboard.press("Control+z");
  await expect(editor.row(ANALYSE)).toHaveAttribute("aria-level", "2");
  await expect(editor.row(COMPARE)).toHaveAttribute("aria-level", "3");
  await editor.expectSaved();
  expect(await parentTextOf(page.request, paperId, ANALYSE)).toBe(ROOT);
  await expect(editor.row(METHOD).getByTestId("row-share")).toHaveText("60.0%");

  await keyboard.press("Shift+Control+z");
  await expect(editor.row(ANALYSE)).toHaveAttribute("aria-level", "3");
  await editor.expectSaved();
  expect(await parentTextOf(page.request, paperId, ANALYSE)).toBe(EXPERIMENTS);
  await expect(editor.row(METHOD).getByTestId("row-share")).toHaveText("75.0%");

  // ---- Fix every lint finding, going to each node from the lint panel.
  await editor.tab("lint").click();
  await expect(editor.lintPanel).toBeVisible();
  // Four leaves without a category (errors) and the empty node (a warning too).
  await expect(editor.lintItems.and(page.locator('[data-code="leaf_without_category"]'))).toHaveCount(4);
  await expect(editor.lintItems.and(page.locator('[data-code="empty_requirements"]'))).toHaveCount(1);
  const fixed: string[] = [];
  for (let round = 0; round < 10; round++) {
    if ((await editor.lintItems.count()) === 0) break;
    const finding = editor.lintItems.first();
    const key = await finding.getAttribute("data-key");
    await finding.click();
    await expect(page.locator(`[data-testid="tree-row"][data-key="${key}"]`)).toHaveAttribute("data-selected", "true");
    await editor.tab("inspector").click();
    await expect(editor.inspector).toHaveAttribute("data-key", key!);
    let text = await editor.inspectorRequirements.inputValue();
    if (text === "") {
      // The empty node: write its requirement in the inspector (Ctrl+Enter saves).
      await editor.inspectorRequirements.fill(REPORT);
      await editor.inspectorRequirements.press("Control+Enter");
      await expect(editor.row(REPORT)).toBeVisible();
      text = REPORT;
    }
    const categories = LEAF_CATEGORIES[text];
    expect(categories, `a category for "${text}"`).toBeDefined();
    await editor.inspectorCategory.selectOption(categories[0]);
    await editor.inspectorFinegrained.selectOption(categories[1]);
    await expect(editor.row(text).getByTestId("row-category")).toBeVisible();
    await expect(editor.row(text).getByTestId("lint-marker")).toHaveCount(0);
    fixed.push(text);
    await editor.tab("lint").click();
    await expect(editor.lintPanel).toBeVisible();
    await expect(page.locator(`[data-testid="lint-item"][data-key="${key}"]`)).toHaveCount(0);
  }
  expect(fixed.sort()).toEqual([COMPARE, LOOP, REPORT, TRAIN].sort());
  await expect(editor.lintEmpty).toBeVisible();
  await expect(editor.lintEmpty).toContainText("No problems");
  await expect(editor.stats).toContainText("0 errors");
  await expect(editor.stats).toContainText("0 warnings");
  await expect(page.getByTestId("lint-marker")).toHaveCount(0);
  await editor.expectSaved();

  // ---- Save a named version: it equals the live tree.
  await editor.tab("versions").click();
  await expect(page.getByTestId("versions-empty")).toBeVisible();
  await page.getByTestId("version-name").fill("First draft");
  await editor.versionsPanel.getByRole("button", { name: "Save version" }).click();
  const version = page.getByTestId("version-item");
  await expect(version).toHaveCount(1);
  await expect(version).toContainText("First draft");
  await expect(version).toContainText("= live");
  await expect(page.getByTestId("diff-identical")).toBeVisible();

  // ---- Change a weight; the diff against the version shows it and the leaf shares it moved.
  await editor.select(TRAIN);
  await expect(editor.inspectorShare).toHaveText("8.3%");
  await editor.setWeight(TRAIN, 3);
  await expect(editor.inspectorShare).toHaveText("15.0%");
  await editor.expectSaved();
  await editor.tab("versions").click();
  await expect(version).not.toContainText("= live");
  const diff = page.getByTestId("diff-view");
  await expect(diff.locator('[data-count="changed"]')).toContainText("1 changed");
  await expect(diff.locator('[data-count="added"]')).toContainText("0 added");
  await expect(diff.locator('[data-count="moved"]')).toContainText("0 moved");
  const changed = page.getByTestId("diff-changed");
  await expect(changed).toHaveCount(1);
  await expect(changed).toContainText(TRAIN);
  await expect(changed.getByTestId("diff-weight")).toHaveText(/weight\s*1 → 3/);
  const shares = page.getByTestId("share-change");
  await expect(shares).toHaveCount(3);
  await expect(shares.filter({ hasText: TRAIN })).toContainText("8.3% → 15.0%");
  await expect(shares.filter({ hasText: COMPARE })).toContainText("8.3% → 5.0%");
  await expect(shares.filter({ hasText: REPORT })).toContainText("8.3% → 5.0%");

  // ---- Export: a download that passes PaperBench's rules and holds the tree built here.
  await editor.expectSaved();
  const [download] = await Promise.all([page.waitForEvent("download"), editor.button("export-button").click()]);
  expect(download.suggestedFilename()).toMatch(/\.json$/);
  const bytes = await fs.readFile(await download.path());
  const parsed = parseRubricJson(bytes.toString("utf8"));
  if (!parsed.ok) throw new Error(`the export does not parse: ${JSON.stringify(parsed.errors)}`);
  expect(blockingExportWarnings(parsed.warnings)).toEqual([]);
  expect(parsed.warnings).toEqual([]);
  expect(shapeOf(parsed.tree)).toEqual(
    node(ROOT, 1, [
      node(METHOD, 3, [leaf(CLIPPING, 2), leaf(LOOP)]),
      node(EXPERIMENTS, 1, [node(ANALYSE, 1, [leaf(COMPARE)]), leaf(TRAIN, 3), leaf(REPORT)]),
    ]),
  );
  nodes = (await getNodes(page.request, paperId)).nodes;
  expect(idsOf(parsed.tree).sort()).toEqual(nodes.map((n) => n.nodeId).sort());
  expect(idsOf(parsed.tree).every((id) => UUID.test(id))).toBe(true);
  // The same bytes as the API's export.
  const api = await page.request.get(`/api/papers/${paperId}/rubric/export`);
  expect(api.status()).toBe(200);
  expect((await api.body()).equals(bytes)).toBe(true);
  expect(errors).toEqual([]);
});

test("a grader sees the rubric read-only: no edit controls, and edit keys do nothing", async ({ asUser }) => {
  const demo = readDemoRubric().tree;
  const page = await asUser(GRADER);
  const errors = pageErrors(page);
  const editor = new EditorPage(page, DEMO_PAPER.id);
  const before = await getNodes(page.request, DEMO_PAPER.id);
  expect(before.canEdit).toBe(false);

  await editor.open();
  await expect(editor.readOnlyBadge).toHaveText("Read-only");
  await expect(editor.rows).toHaveCount(1 + demo.sub_tasks.length);
  for (const testId of ["add-child", "add-sibling", "duplicate", "delete", "undo-button", "redo-button"] as const) {
    await expect(editor.button(testId)).toHaveCount(0);
  }

  // The inspector shows the node, but nothing in it can be changed.
  const child = demo.sub_tasks[0];
  await editor.select(child.requirements);
  await expect(editor.inspectorWeight).toHaveValue(String(child.weight));
  await expect(editor.inspectorWeight).not.toBeEditable();
  await expect(editor.inspectorRequirements).not.toBeEditable();
  await expect(editor.inspectorCategory).toBeDisabled();
  await expect(editor.inspectorFinegrained).toBeDisabled();

  // Edit keys on the selected row: no editor opens, no node is added or deleted.
  await editor.rowText(child.requirements).click();
  for (const key of ["Enter", "F2", "a", "s", "d", "Delete", "Backspace", "Control+z", "Shift+Control+z"]) {
    await page.keyboard.press(key);
  }
  await editor.rowText(child.requirements).dblclick();
  await expect(editor.inlineEditor).toHaveCount(0);
  await expect(editor.rows).toHaveCount(1 + demo.sub_tasks.length);
  await expect(editor.row(child.requirements)).toBeVisible();

  // A drag does not move anything either.
  await editor.rowText(demo.sub_tasks[1].requirements).dragTo(editor.row(demo.sub_tasks[2].requirements), {
    targetPosition: { x: 160, y: 16 },
  });
  await expect(editor.row(demo.sub_tasks[1].requirements)).toHaveAttribute("aria-level", "2");

  // The lint and versions panels read only too: no form to save a version.
  await editor.tab("versions").click();
  await expect(editor.versionsPanel).toBeVisible();
  await expect(page.getByTestId("version-name")).toHaveCount(0);

  const after = await getNodes(page.request, DEMO_PAPER.id);
  expect(after.revision).toBe(before.revision);
  expect(after.nodes).toEqual(before.nodes);

  // The server refuses a grader's operation outright.
  const refused = await page.request.post(`/api/papers/${DEMO_PAPER.id}/rubric/operations`, {
    data: {
      clientOpId: `e2e-grader-${Date.now()}`,
      baseRevision: after.revision,
      op: { kind: "update", key: after.nodes[1].key, fields: { weight: 9 } },
    },
  });
  expect(refused.status()).toBe(403);
  expect(errors).toEqual([]);
});

test("a change the server refuses is rolled back with the server's reason", async ({ asUser }) => {
  test.setTimeout(90_000);
  const demo = readDemoRubric();
  const paperId = `e2e-editor-refused-${Date.now()}`;
  const staff = await asUser(STAFF);
  await paperWithDemoRubric(staff, paperId);

  // The author has the editor open twice (two browser contexts). The second has lost its live feed
  // (as a client briefly offline would), so it still shows what the first one deletes.
  const first = new EditorPage(await asUser(AUTHOR), paperId);
  const second = new EditorPage(await asUser(AUTHOR), paperId);
  await second.page.route("**/rubric/events**", (route) => route.abort());
  const errors = [first, second].map((e) => pageErrors(e.page));
  await first.open();
  await second.open();
  const [, setup, experiments, results] = demo.tree.sub_tasks.map((n) => n.requirements);
  await expect(second.row(setup)).toBeVisible();

  // 1. A move under a node deleted meanwhile: refused, the moved node goes back where it was.
  await first.select(setup);
  await first.page.keyboard.press("Delete");
  await expect(first.toast("Deleted")).toBeVisible();
  await expect(first.row(setup)).toHaveCount(0);
  await first.expectSaved();
  const revisionAfterDelete = (await getNodes(first.page.request, paperId)).revision;

  await expect(second.row(setup)).toBeVisible(); // still shown: the second editor is stale
  await second.rowText(experiments).dragTo(second.row(setup), { targetPosition: { x: 160, y: 16 } });
  await expect(
    second.toast(`The new parent was deleted (in revision ${revisionAfterDelete}); restore it first`),
  ).toBeVisible();
  await expect(second.toast("“Move a node” was not saved and has been rolled back.")).toBeVisible();
  // Rolled back and refreshed: the node is a child of the root again, the deleted one is gone.
  await expect(second.row(setup)).toHaveCount(0);
  await expect(second.row(experiments)).toHaveAttribute("aria-level", "2");
  await second.expectSaved();
  await expect(second.revision).toHaveText(`revision ${revisionAfterDelete}`);
  expect(await parentTextOf(second.page.request, paperId, experiments)).toBe(demo.tree.requirements);

  // 2. A weight change of a node deleted meanwhile: refused, the node disappears, its weight is not saved.
  await first.select(results);
  await first.button("delete").click();
  await expect(first.row(results)).toHaveCount(0);
  await first.expectSaved();
  const revisionAfterSecondDelete = (await getNodes(first.page.request, paperId)).revision;
  expect(revisionAfterSecondDelete).toBe(revisionAfterDelete + 1);

  await second.select(results);
  await second.inspectorWeight.fill("7");
  await second.inspectorWeight.press("Enter");
  await expect(
    second.toast(`The node was deleted (in revision ${revisionAfterSecondDelete}); restore it first`),
  ).toBeVisible();
  await expect(second.toast("“Change weight” was not saved and has been rolled back.")).toBeVisible();
  await expect(second.row(results)).toHaveCount(0);
  await expect(second.revision).toHaveText(`revision ${revisionAfterSecondDelete}`);
  await second.expectSaved();

  const { nodes, revision } = await getNodes(second.page.request, paperId);
  expect(revision).toBe(revisionAfterSecondDelete);
  expect(nodes.some((n) => n.weight === 7)).toBe(false);
  expect(nodes.some((n) => n.requirements === results || n.requirements === setup)).toBe(false);
  // The first editor's undo brings the deleted subtree back (its own change).
  await first.rowText(demo.tree.requirements).click();
  await first.page.keyboard.press("Control+z");
  await expect(first.row(results)).toBeVisible();
  await first.expectSaved();
  expect(rowByText((await getNodes(first.page.request, paperId)).nodes, results).weight).toBe(
    demo.tree.sub_tasks[3].weight,
  );
  expect(errors.flat()).toEqual([]);
});

test("an edit in one editor appears in another person's editor without a reload", async ({ asUser }) => {
  const demo = readDemoRubric();
  const paperId = `e2e-editor-live-${Date.now()}`;
  const staff = await asUser(STAFF);
  await paperWithDemoRubric(staff, paperId);

  const author = new EditorPage(await asUser(AUTHOR), paperId);
  const watcher = new EditorPage(staff, paperId);
  await author.open();
  await watcher.open();
  const target = demo.tree.sub_tasks[1].requirements;
  await expect(watcher.row(target).getByTestId("row-weight")).toHaveText(String(demo.tree.sub_tasks[1].weight));
  const revision = (await getNodes(author.page.request, paperId)).revision;

  await author.select(target);
  await author.inspectorWeight.fill("9");
  await author.inspectorWeight.press("Enter");
  // Live, with no reload: the weight, and the revision it came with.
  await expect(watcher.row(target).getByTestId("row-weight")).toHaveText("9");
  await expect(watcher.revision).toHaveText(`revision ${revision + 1}`);
  // The node's history says who did it.
  await watcher.select(target);
  await watcher.page.getByTestId("node-history").locator("summary").click();
  await expect(watcher.page.getByTestId("node-history-item").first()).toContainText(`${AUTHOR.name} set weight to 9`);

  // And the other way round, a deletion.
  const gone = demo.tree.sub_tasks[2].requirements;
  await watcher.select(gone);
  await watcher.page.keyboard.press("Delete");
  await expect(author.row(gone)).toHaveCount(0);

  // Someone deletes the node the other person is working on: they are told, and can restore it.
  const worked = demo.tree.sub_tasks[3].requirements;
  await author.select(worked);
  await watcher.select(worked);
  await watcher.page.keyboard.press("Delete");
  await expect(author.toast(`${STAFF.name} deleted the node you were working on`)).toBeVisible();
  await author.page.getByRole("button", { name: "Restore" }).click();
  await expect(author.row(worked)).toBeVisible();
  await expect(watcher.row(worked)).toBeVisible();
});

test("two people typing in one requirement both keep their words", async ({ asUser }) => {
  const demo = readDemoRubric();
  const paperId = `e2e-editor-merge-${Date.now()}`;
  const staff = await asUser(STAFF);
  await paperWithDemoRubric(staff, paperId);

  const alice = new EditorPage(await asUser(AUTHOR), paperId);
  const bob = new EditorPage(staff, paperId);
  await alice.open();
  await bob.open();
  const original = demo.tree.sub_tasks[0].requirements;
  await alice.select(original);
  await bob.select(original);

  // Both start typing before either saves.
  await alice.inspectorRequirements.press("Control+End");
  await alice.inspectorRequirements.pressSequentially(" (Alice)");
  await bob.inspectorRequirements.press("Control+Home");
  await bob.inspectorRequirements.pressSequentially("Bob: ");
  await alice.inspectorRequirements.press("Control+Enter");
  await alice.expectSaved();
  await bob.inspectorRequirements.press("Control+Enter");
  await bob.expectSaved();

  const merged = `Bob: ${original} (Alice)`;
  await expect(bob.row(merged)).toBeVisible();
  await expect(alice.row(merged)).toBeVisible();
  expect((await getNodes(alice.page.request, paperId)).nodes.some((n) => n.requirements === merged)).toBe(true);
});

test("an author signs off a revision; a change by someone else returns the rubric to draft for everyone", async ({
  asUser,
}) => {
  const demo = readDemoRubric();
  const paperId = `e2e-editor-signoff-${Date.now()}`;
  const staff = await asUser(STAFF);
  await paperWithDemoRubric(staff, paperId);
  const author = new EditorPage(await asUser(AUTHOR), paperId);
  const other = new EditorPage(staff, paperId);
  // The other editor's first read of the status is answered before the sign-off but reaches the page
  // only after the live feed has told of it (a loaded machine, a slow network): the page must read it
  // again, not keep that answer (it kept saying "Draft" on CI).
  const firstRead = await holdFirstRead(other.page, `**/api/papers/${paperId}/rubric/review`);
  await author.open();
  await other.open();
  await firstRead.answered;

  const status = author.page.getByTestId("review-status");
  await expect(status.getByTestId("review-status-label")).toHaveText("Draft");
  await status.locator("summary").click();
  await status.getByRole("button", { name: /Sign off revision/ }).click();
  await expect(status.getByTestId("review-status-label")).toHaveText("Signed off");
  await expect(status.getByTestId("review-history")).toContainText(`Signed off at revision 1 by ${AUTHOR.name}`);
  // The author then selects a node: once the other editor shows where, the feed has told it of the
  // sign-off before (one stream, in order), and the held answer ("Draft") may arrive.
  const selected = demo.tree.sub_tasks[1].requirements;
  await author.select(selected);
  await expect(other.row(selected).getByTestId("presence-marker")).toBeVisible();
  firstRead.deliver();
  // The other editor hears of the sign-off, with who did it.
  await expect(other.page.getByTestId("review-status-label")).toHaveText("Signed off");
  await expect(other.toast(`${AUTHOR.name}: signed off at revision 1`)).toBeVisible();

  // Someone else changes a weight: both editors show the rubric back in draft, and say why.
  await other.select(demo.tree.sub_tasks[0].requirements);
  await other.setWeight(demo.tree.sub_tasks[0].requirements, 4);
  await expect(status.getByTestId("review-status-label")).toHaveText("Draft");
  await expect(author.toast("The rubric changed after sign-off and is a draft again")).toBeVisible();
  await expect(other.page.getByTestId("review-status-label")).toHaveText("Draft");
  await expect(status.getByTestId("review-history")).toContainText("Changed after sign-off (revision 2)");
});
