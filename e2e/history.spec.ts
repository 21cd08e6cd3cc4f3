import type { Page } from "@playwright/test";
import fs from "node:fs/promises";
import { DEMO_RUBRIC_PATH, readDemoRubric, type RubricJson } from "./support/files";
import { EditorPage, getNodes, pageErrors, rowByText } from "./support/editor";
import { expect, newStudioContext, test } from "./support/fixtures";
import { AUTHOR, STAFF } from "./support/users";

/**
 * History (issue 4, item 6): deleted subtrees listed with who deleted them and brought back, and
 * the rubric as of any revision compared with the live one and restored. Each test works on a
 * paper of its own with the demo rubric, the demo author as its author.
 */

async function paperWithDemoRubric(staff: Page, paperId: string, author = true): Promise<void> {
  const created = await staff.request.post("/api/papers", { data: { id: paperId, title: `History ${paperId}` } });
  expect(created.status()).toBe(201);
  if (author) {
    const added = await staff.request.post(`/api/papers/${paperId}/members`, {
      data: { email: AUTHOR.email, role: "author" },
    });
    expect(added.status()).toBe(201);
  }
  const uploaded = await staff.request.put(`/api/papers/${paperId}/rubric`, {
    headers: { "content-type": "application/json" },
    data: await fs.readFile(DEMO_RUBRIC_PATH),
  });
  expect(uploaded.status()).toBe(200);
}

const size = (node: RubricJson): number => 1 + node.sub_tasks.reduce((n, c) => n + size(c), 0);

test("an author deletes a subtree, finds it under Deleted with who and when, and restores it", async ({ asUser }) => {
  const demo = readDemoRubric().tree;
  const paperId = `e2e-history-deleted-${Date.now()}`;
  await paperWithDemoRubric(await asUser(STAFF), paperId);
  const page = await asUser(AUTHOR);
  const errors = pageErrors(page);
  const editor = new EditorPage(page, paperId);
  await editor.open();

  const items = page.getByTestId("deleted-item");
  await page.getByTestId("tab-deleted").click();
  await expect(page.getByTestId("deleted-empty")).toContainText("Nothing deleted");

  // Delete a subtree from the tree.
  const subtree = demo.sub_tasks[0];
  const keyBefore = rowByText((await getNodes(page.request, paperId)).nodes, subtree.requirements).key;
  await editor.select(subtree.requirements);
  await page.keyboard.press("Delete");
  await expect(editor.row(subtree.requirements)).toHaveCount(0);
  await editor.expectSaved();

  // It is listed with its size, who deleted it and in which revision.
  await page.getByTestId("tab-deleted").click();
  await expect(items).toHaveCount(1);
  await expect(items.first().getByTestId("deleted-text")).toHaveText(subtree.requirements);
  await expect(items.first()).toContainText(`${size(subtree)} nodes`);
  await expect(items.first()).toContainText(`was under “${demo.requirements.slice(0, 20)}`);
  await expect(items.first()).toContainText(`Deleted by ${AUTHOR.name}`);
  await expect(items.first()).toContainText("rev 2");

  // Restore: back in the tree under its old key, and the list is empty again.
  await items.first().getByTestId("deleted-restore").click();
  await expect(editor.row(subtree.requirements)).toBeVisible();
  await expect(editor.toast(`Restored ${size(subtree)} nodes`)).toBeVisible();
  await editor.expectSaved();
  await expect(page.getByTestId("deleted-empty")).toBeVisible();
  expect(rowByText((await getNodes(page.request, paperId)).nodes, subtree.requirements).key).toBe(keyBefore);

  // A child deleted first, then its parent: the child says why it cannot come back alone.
  const child = subtree.sub_tasks[0];
  await editor.tab("inspector").click();
  await page.getByTestId("expand-all").click();
  await editor.select(child.requirements);
  await page.keyboard.press("Delete");
  await expect(editor.row(child.requirements)).toHaveCount(0);
  await editor.select(subtree.requirements);
  await page.keyboard.press("Delete");
  await expect(editor.row(subtree.requirements)).toHaveCount(0);
  await editor.expectSaved();
  await page.getByTestId("tab-deleted").click();
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByTestId("deleted-text")).toHaveText(subtree.requirements);
  const inner = items.nth(1);
  await expect(inner.getByTestId("deleted-text")).toHaveText(child.requirements);
  await expect(inner.getByTestId("deleted-enclosed")).toContainText("Its parent was deleted later");
  await expect(inner.getByTestId("deleted-restore")).toHaveText("Restore with its parent");
  await inner.getByTestId("deleted-restore").click();
  await expect(editor.row(subtree.requirements)).toBeVisible();
  await expect(editor.row(child.requirements)).toBeVisible();
  await editor.expectSaved();
  await expect(page.getByTestId("deleted-empty")).toBeVisible();
  expect((await getNodes(page.request, paperId)).nodes).toHaveLength(size(demo));
  expect(errors).toEqual([]);
});

test("an author compares an earlier revision with the live rubric and restores it", async ({ asUser }) => {
  const demo = readDemoRubric().tree;
  const paperId = `e2e-history-revision-${Date.now()}`;
  await paperWithDemoRubric(await asUser(STAFF), paperId);
  const page = await asUser(AUTHOR);
  const errors = pageErrors(page);
  const editor = new EditorPage(page, paperId);
  await editor.open();

  // Revision 2: a weight; revision 3: a subtree deleted.
  const [, weighted, removed] = demo.sub_tasks;
  await editor.select(weighted.requirements);
  await editor.setWeight(weighted.requirements, 9);
  await editor.select(removed.requirements);
  await page.keyboard.press("Delete");
  await expect(editor.row(removed.requirements)).toHaveCount(0);
  await editor.expectSaved();
  await expect(editor.revision).toHaveText("revision 3");

  await editor.tab("versions").click();
  const history = page.getByTestId("revision-history");
  await expect(history.getByTestId("revision-item")).toHaveCount(3);
  const list = history.getByTestId("revision-item");
  await expect(list.nth(0)).toContainText(`Deleted “${removed.requirements.slice(0, 30)}`);
  await expect(list.nth(0)).toContainText(AUTHOR.name);
  await expect(list.nth(1)).toContainText(`Changed weight of “${weighted.requirements.slice(0, 30)}`);
  await expect(list.nth(2)).toContainText("Imported the rubric (33 nodes)");

  // A revision that does not exist yet is refused in place.
  await history.getByTestId("revision-input").fill("7");
  await history.getByTestId("revision-show").click();
  await expect(history.getByRole("alert")).toHaveText("Pick a whole revision number from 0 to 3");

  // Revision 1 against live: the weight changed, the subtree removed.
  await history.getByTestId("revision-input").fill("1");
  await history.getByTestId("revision-show").click();
  const diff = history.getByTestId("revision-diff");
  await expect(diff).toHaveAttribute("data-revision", "1");
  await expect(diff.locator('[data-count="removed"]')).toHaveText(`${size(removed)} removed`);
  await expect(diff.locator('[data-count="changed"]')).toHaveText("1 changed");
  await expect(diff.getByTestId("diff-weight")).toHaveText(`weight${weighted.weight} → 9`);

  // Picked from the list: revision 2 differs from live only by the deleted subtree.
  await list.nth(1).click();
  await expect(diff).toHaveAttribute("data-revision", "2");
  await expect(diff.locator('[data-count="removed"]')).toHaveText(`${size(removed)} removed`);
  await expect(diff.locator('[data-count="changed"]')).toHaveText("0 changed");

  // Restore revision 1: one change, undoable; the tree is as imported again.
  await history.getByTestId("revision-input").fill("1");
  await history.getByTestId("revision-show").click();
  await history.getByTestId("revision-restore").click();
  await history.getByTestId("revision-restore-confirm").click();
  await expect(editor.toast("Restored revision 1")).toBeVisible();
  await expect(editor.row(removed.requirements)).toBeVisible();
  await expect(editor.revision).toHaveText("revision 4");
  const { nodes } = await getNodes(page.request, paperId);
  expect(nodes).toHaveLength(size(demo));
  expect(rowByText(nodes, weighted.requirements).weight).toBe(weighted.weight);
  expect(errors).toEqual([]);
});

test("the history API answers 401 signed out, 403 to a non-member and 400 to a bad revision", async ({
  asUser,
  browser,
  baseURL,
}) => {
  const paperId = `e2e-history-api-${Date.now()}`;
  const staff = await asUser(STAFF);
  await paperWithDemoRubric(staff, paperId, false);
  const urls = [
    `/api/papers/${paperId}/rubric/tree?revision=1`,
    `/api/papers/${paperId}/rubric/deleted`,
    `/api/papers/${paperId}/rubric/revisions`,
  ];

  const anonymous = await newStudioContext(browser, baseURL);
  try {
    for (const url of urls) expect((await anonymous.request.get(url)).status(), url).toBe(401);
  } finally {
    await anonymous.close();
  }
  const outsider = await asUser(AUTHOR);
  for (const url of urls) {
    const res = await outsider.request.get(url);
    expect(res.status(), url).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden");
  }
  for (const revision of ["x", "-1", "2"]) {
    const res = await staff.request.get(`/api/papers/${paperId}/rubric/tree?revision=${revision}`);
    expect(res.status(), revision).toBe(400);
    expect((await res.json()).error.message).toMatch(revision === "2" ? /does not exist yet/ : /^Revision /);
  }
  const ok = await staff.request.get(`/api/papers/${paperId}/rubric/tree?revision=1`);
  expect(ok.status()).toBe(200);
  expect((await ok.json()).nodes).toHaveLength(33);
});
