import { expect, test } from "./support/fixtures";
import { serializeRubric } from "../lib/rubric/paperbench";
import { EditorPage } from "./support/editor";
import { readDemoRubric, writeFile, type RubricJson } from "./support/files";
import { PaperPage } from "./support/pages";
import { AUTHOR, STAFF } from "./support/users";

/**
 * Lint in the editor is grouped by rule with counts; a rule's warnings are dismissed with a reason
 * and the count drops, for a co-editor too (live); the paper page shows the same count, a reload
 * keeps it, the history says who dismissed what, and "Bring back" undoes it. Runs on its own paper.
 */
test("dismissing a lint rule with a reason: grouped, counted the same on the paper page, live, kept, undone", async ({
  asUser,
}, testInfo) => {
  // Two people, two pages each, and screenshots at two sizes.
  test.setTimeout(240_000);
  const paperId = `e2e-dismiss-${Date.now()}`;
  const staff = await asUser(STAFF);
  expect(
    (await staff.request.post("/api/papers", { data: { id: paperId, title: `Dismiss ${paperId}` } })).status(),
  ).toBe(201);
  expect(
    (
      await staff.request.post(`/api/papers/${paperId}/members`, { data: { email: AUTHOR.email, role: "author" } })
    ).status(),
  ).toBe(201);

  // The demo rubric with two leaves far lighter than their siblings and one id that is no UUID:
  // 2 "Weight far below its siblings" warnings and 1 "Non-UUID id" warning.
  const tree = structuredClone(readDemoRubric().tree);
  const parent = findParentOfLeaves(tree, 3);
  parent.sub_tasks[0].weight = 0.01;
  parent.sub_tasks[1].weight = 0.01;
  tree.sub_tasks[0].id = "not-a-uuid";
  const file = writeFile(testInfo.outputPath("rubric.json"), serializeRubric(tree));

  const page = await asUser(AUTHOR);
  const paper = new PaperPage(page, paperId);
  await paper.goto();
  expect(await paper.uploadRubric(file)).toBe(200);
  await expect(page.getByTestId("rubric-lint-count")).toHaveText("3 warnings");

  // A co-editor has the editor open on the lint tab.
  const other = new EditorPage(staff, paperId);
  await openEditor(other);
  await other.tab("lint").click();
  await expect(other.page.getByTestId("lint-counts")).toHaveText(/3 warnings/);

  const editor = new EditorPage(page, paperId);
  await openEditor(editor);
  await editor.tab("lint").click();
  const groups = page.getByTestId("lint-group");
  await expect(groups).toHaveCount(2);
  const tiny = groups.and(page.locator('[data-code="tiny_share"]'));
  await expect(tiny.getByTestId("lint-group-count")).toHaveText("2");
  await expect(tiny.getByRole("button", { name: /Weight far below its siblings/ })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  await expect(tiny.getByTestId("lint-item")).toHaveCount(2);
  await expect(groups.and(page.locator('[data-code="non_uuid_id"]')).getByTestId("lint-group-count")).toHaveText("1");
  await expect(page.getByTestId("lint-counts")).toHaveText(/0 errors\s*·\s*3 warnings/);
  await expect(page.getByTestId("tab-lint-badge")).toHaveText("3");
  await screenshot(page, testInfo, "editor-lint-grouped");

  // Collapsing a group hides its findings, not its count.
  await tiny.getByRole("button", { name: /Weight far below its siblings/ }).click();
  await expect(tiny.getByTestId("lint-item")).toHaveCount(0);
  await expect(tiny.getByTestId("lint-group-count")).toHaveText("2");

  // Dismiss the rule: a reason is required.
  await tiny.getByTestId("lint-dismiss-rule").click();
  await page.getByTestId("lint-dismiss-confirm").click();
  await expect(page.getByTestId("lint-dismiss-form").getByRole("alert")).toContainText("Say why");
  await page.getByTestId("lint-dismiss-reason").fill("The paper weighs these checks lightly");
  await page.getByTestId("lint-dismiss-confirm").click();
  await expect(tiny).toHaveCount(0);
  await expect(page.getByTestId("lint-counts")).toHaveText(/0 errors\s*·\s*1 warning\s*·\s*2 dismissed/);
  await expect(page.getByTestId("tab-lint-badge")).toHaveText("1");
  const dismissedList = page.getByTestId("lint-dismissed");
  await dismissedList.locator("summary").click();
  await expect(dismissedList.getByTestId("lint-dismissal")).toHaveCount(1);
  await expect(dismissedList.getByTestId("lint-dismissal-reason")).toContainText(
    "The paper weighs these checks lightly",
  );
  await expect(dismissedList).toContainText("hides 2 findings");
  await screenshot(page, testInfo, "editor-lint-dismissed");

  // The co-editor's count drops without a reload.
  await expect(other.page.getByTestId("lint-counts")).toHaveText(/1 warning\s*·\s*2 dismissed/);

  // The revision history names it.
  await editor.tab("versions").click();
  await expect(page.getByTestId("revision-item").first()).toContainText(
    "Dismissed every “Weight far below its siblings” warning",
  );

  // The paper page counts the same, and so does a reload of the editor.
  await paper.goto();
  await expect(page.getByTestId("rubric-lint-count")).toHaveText("1 warning");
  await expect(page.getByTestId("rubric-lint-dismissed")).toContainText("2 dismissed");
  await page.getByTestId("rubric-lint-group").getByRole("button").click();
  await expect(page.getByTestId("rubric-lint-items")).toContainText("not-a-uuid");
  await screenshot(page, testInfo, "paper-lint");
  await openEditor(editor);
  await editor.tab("lint").click();
  await expect(page.getByTestId("lint-counts")).toHaveText(/1 warning\s*·\s*2 dismissed/);

  // Bring it back: the findings and the count return, on the paper page too.
  await page.getByTestId("lint-dismissed").locator("summary").click();
  await page.getByTestId("lint-undismiss").click();
  await expect(page.getByTestId("lint-counts")).toHaveText(/0 errors\s*·\s*3 warnings/);
  await expect(page.getByTestId("lint-dismissed")).toHaveCount(0);
  await expect(other.page.getByTestId("lint-counts")).toHaveText(/3 warnings/);
  await paper.goto();
  await expect(page.getByTestId("rubric-lint-count")).toHaveText("3 warnings");
});

/** Opens the editor and waits for the tree (pinn-sized loads aside, a busy machine is slow here). */
async function openEditor(editor: EditorPage): Promise<void> {
  await editor.goto();
  await expect(editor.editor).toBeVisible({ timeout: 60_000 });
}

/** The first node (pre-order) with at least `n` leaf children. */
function findParentOfLeaves(tree: RubricJson, n: number): RubricJson {
  const stack = [tree];
  while (stack.length) {
    const node = stack.shift()!;
    if (
      node.sub_tasks.filter((c) => c.sub_tasks.length === 0).length >= n &&
      node.sub_tasks.slice(0, 2).every((c) => c.sub_tasks.length === 0)
    )
      return node;
    stack.push(...node.sub_tasks);
  }
  throw new Error(`no node with ${n} leaf children`);
}

async function screenshot(
  page: import("@playwright/test").Page,
  testInfo: import("@playwright/test").TestInfo,
  name: string,
) {
  for (const [w, h] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
