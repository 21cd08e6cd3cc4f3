import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { EditorPage } from "./support/editor";
import { DEMO_RUBRIC_PATH, readDemoRubric } from "./support/files";
import { expect, test } from "./support/fixtures";
import { AUTHOR, GRADER, STAFF } from "./support/users";

/**
 * The header's inbox: a mention in a comment reaches the person mentioned outside the editor, live,
 * and takes them to the node.
 *
 * The demo grader is a shared user: specs running beside this one assign them gradings, which
 * notify them too. So the counts here are "at least one", and the entry is found by its text.
 */

async function paperWithAuthorAndGrader(staff: Page, paperId: string): Promise<void> {
  expect((await staff.request.post("/api/papers", { data: { id: paperId, title: `Inbox ${paperId}` } })).status()).toBe(
    201,
  );
  for (const [email, role] of [
    [AUTHOR.email, "author"],
    [GRADER.email, "grader"],
  ]) {
    expect((await staff.request.post(`/api/papers/${paperId}/members`, { data: { email, role } })).status()).toBe(201);
  }
  const uploaded = await staff.request.put(`/api/papers/${paperId}/rubric`, {
    headers: { "content-type": "application/json" },
    data: await fs.readFile(DEMO_RUBRIC_PATH),
  });
  expect(uploaded.status()).toBe(200);
}

test("a mention raises the mentioned person's unread count live; the inbox takes them to the node and the entry is read", async ({
  asUser,
}, testInfo) => {
  // Three people signed in, an editor opened twice.
  test.setTimeout(240_000);
  const demo = readDemoRubric();
  const paperId = `e2e-inbox-${Date.now()}`;
  await paperWithAuthorAndGrader(await asUser(STAFF), paperId);

  // The grader starts from an empty count (other specs may have notified them).
  const graderPage = await asUser(GRADER);
  expect((await graderPage.request.post("/api/notifications/read", { data: { all: true } })).status()).toBe(200);
  await graderPage.goto("/");
  const bell = graderPage.getByTestId("inbox-button");
  await expect(bell).toBeVisible();

  // The author mentions the grader in a comment on a node.
  const author = new EditorPage(await asUser(AUTHOR), paperId);
  await author.goto();
  await expect(author.editor).toBeVisible({ timeout: 30_000 });
  const target = demo.tree.sub_tasks[1].requirements;
  await author.select(target);
  const box = author.page.getByTestId("comment-new");
  await box.click();
  await box.pressSequentially("Could you check this one? @grace");
  await expect(author.page.getByTestId("mention-options")).toContainText(GRADER.email);
  await box.press("Enter");
  await box.press("Control+Enter");
  await expect(box).toHaveValue("");
  // The author is not told of their own comment.
  const authorsInbox = await (await author.page.request.get("/api/notifications")).json();
  expect(authorsInbox.items.filter((n: { paperId: string }) => n.paperId === paperId)).toEqual([]);

  // The grader's header counts it without a reload.
  await expect(graderPage.getByTestId("inbox-unread")).toHaveText(/^[1-9]\d*$/);
  await expect(bell).toHaveAccessibleName(/^Notifications, [1-9]\d* unread$/);

  // From the keyboard: the bell opens the panel on its newest entry, Esc closes it back to the bell.
  await bell.focus();
  await graderPage.keyboard.press("Enter");
  const panel = graderPage.getByTestId("inbox-panel");
  const item = panel.getByTestId("inbox-item").filter({ hasText: `mentioned you on Inbox ${paperId}` });
  await expect(item).toHaveAttribute("data-unread", "true");
  await expect(item).toContainText(`${AUTHOR.name} mentioned you on Inbox ${paperId}`);
  await expect(item).toContainText(`Could you check this one? @${GRADER.name}`);
  await expect(item).toContainText("just now");
  await expect(panel.getByTestId("inbox-item").first().getByRole("link")).toBeFocused();
  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ]) {
    await graderPage.setViewportSize({ width, height });
    await graderPage.screenshot({ path: testInfo.outputPath(`inbox-${width}.png`) });
  }
  await graderPage.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(bell).toBeFocused();

  // Following the entry opens the editor at the node; the entry is read.
  await graderPage.keyboard.press("Enter");
  await item.getByRole("link").focus();
  await graderPage.keyboard.press("Enter");
  await expect(graderPage).toHaveURL(new RegExp(`/papers/${paperId}/rubric\\?node=`), { timeout: 30_000 });
  const grader = new EditorPage(graderPage, paperId);
  await expect(grader.inspectorRequirements).toHaveValue(target, { timeout: 30_000 });
  await expect(grader.row(target)).toHaveAttribute("data-selected", "true");

  // The entry stays, read.
  await bell.click();
  await expect(item).toHaveAttribute("data-unread", "false");
  await graderPage.screenshot({ path: testInfo.outputPath("inbox-editor-1024.png") });
});

test("the inbox lists only one's own notifications, refuses bad input and cross-site posts", async ({
  asUser,
  playwright,
  baseURL,
}) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.get("/api/notifications")).status()).toBe(401);
  await anonymous.dispose();
  const staff = await asUser(STAFF);
  const bad = await staff.request.post("/api/notifications/read", { data: { ids: ["nope"] } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.details[0].path).toBe("ids[0]");
  const crossSite = await staff.request.post("/api/notifications/read", {
    data: { all: true },
    headers: { origin: "https://evil.example" },
  });
  expect(crossSite.status()).toBe(403);
});
