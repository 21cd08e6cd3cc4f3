import { coEditorsOnFreshPaper, paperWithDemoRubric } from "./support/demo-paper";
import { readDemoRubric } from "./support/files";
import { holdFirstRead } from "./support/held-read";
import { expect, test } from "./support/fixtures";
import { AUTHOR, GRADER, STAFF } from "./support/users";

/**
 * Working on one rubric together: who else is here and where (presence), and comment threads with
 * @mentions, seen live by the other person. Each test has a paper of its own.
 */

test("each person sees who else is on the rubric and which node they are on, until they leave", async ({ asUser }) => {
  const demo = readDemoRubric();
  const { author, staff } = await coEditorsOnFreshPaper(asUser, "e2e-presence");
  await author.open();
  await expect(author.page.getByTestId("presence-alone")).toBeVisible();
  await staff.open();

  // Each sees the other, live (how fast is a bench figure, not a test bound).
  await expect(author.page.locator(`[data-testid="presence-avatar"][data-name="${STAFF.name}"]`)).toBeVisible();
  await expect(staff.page.locator(`[data-testid="presence-avatar"][data-name="${AUTHOR.name}"]`)).toBeVisible();

  // Staff select a node: the author's tree marks it in staff's colour; editing its text shows as editing.
  const target = demo.tree.sub_tasks[1].requirements;
  await staff.select(target);
  const marker = author.row(target).getByTestId("presence-marker");
  await expect(marker).toBeVisible();
  await expect(marker.locator("[data-editing]")).toHaveAttribute("data-editing", "false");
  await staff.inspectorRequirements.focus();
  await expect(marker.locator("[data-editing]")).toHaveAttribute("data-editing", "true");
  // The author's avatar tooltip says where staff are; a click there jumps to the node.
  await author.page.locator(`[data-testid="presence-avatar"][data-name="${STAFF.name}"]`).click();
  await expect(author.inspectorRequirements).toHaveValue(target);

  // Staff leave: gone from the author's editor.
  await staff.page.goto("/");
  await expect(author.page.getByTestId("presence-alone")).toBeVisible();
  await expect(author.row(target).getByTestId("presence-marker")).toHaveCount(0);
});

test("a comment with an @mention shows up for the other person, who resolves it", async ({ asUser }) => {
  const demo = readDemoRubric();
  const { author, staff } = await coEditorsOnFreshPaper(asUser, "e2e-comments");
  // Staff's first read of the comments is answered before the comment is made but reaches the page
  // only after the live feed has told of it: the page must read them again (CI saw no count).
  const firstRead = await holdFirstRead(staff.page, `**/api/papers/${staff.paperId}/rubric/comments`);
  await author.open();
  await staff.open();
  await firstRead.answered;

  const target = demo.tree.sub_tasks[0].requirements;
  await author.select(target);
  const box = author.page.getByTestId("comment-new");
  await box.click();
  await box.pressSequentially("Is this weight right? @sam");
  // Picking from the list of people inserts the mention.
  await expect(author.page.getByTestId("mention-options")).toContainText(STAFF.email);
  await box.press("Enter");
  // The pick shows the name (with its space); it is sent as the email, so staff are the ones told.
  await expect(box).toHaveValue(`Is this weight right? @${STAFF.name} `);
  await box.press("Control+Enter");
  await expect(box).toHaveValue("");
  await expect(author.page.getByTestId("node-comments").getByTestId("comment")).toHaveCount(1);
  await expect(author.page.getByTestId("node-comments").getByTestId("mention")).toHaveText(`@${STAFF.name}`);
  // The author then starts editing the node: once staff's tree shows it, their feed has told them
  // of the comment before (one stream, in order), and the held answer (no comments) may arrive.
  await author.inspectorRequirements.focus();
  await expect(staff.row(target).getByTestId("presence-marker").locator("[data-editing]")).toHaveAttribute(
    "data-editing",
    "true",
  );
  firstRead.deliver();

  // Staff see it live: a count on the row, the thread under "Mentions me", the mention marked.
  await expect(staff.row(target).getByTestId("row-comments")).toHaveText("1");
  await staff.tab("comments").click();
  await expect(staff.page.getByTestId("tab-comments-badge")).toHaveText("1");
  await staff.page.getByTestId("comments-show-mentions").click();
  const thread = staff.page.getByTestId("comments-panel").getByTestId("comment-thread");
  await expect(thread).toHaveCount(1);
  await expect(thread.getByTestId("mention")).toHaveText(`@${STAFF.name}`);

  // A reply, then resolve: the author's row count goes away, the thread shows as resolved.
  await thread.getByTestId("comment-reply-open").click();
  await thread.getByTestId("comment-reply").fill("Yes, it matches the paper.");
  await thread.getByTestId("comment-reply").press("Control+Enter");
  await expect(author.page.getByTestId("node-comments").getByTestId("comment")).toHaveCount(2);
  await thread.getByTestId("comment-resolve").click();
  await expect(author.row(target).getByTestId("row-comments")).toHaveCount(0);
  await expect(author.page.getByTestId("node-comments").getByTestId("comment-thread")).toHaveAttribute(
    "data-resolved",
    "true",
  );

  // A mention of someone who is not on the paper is refused, with the reason, and the text stays.
  await box.fill(`cc @${GRADER.email}`);
  await box.press("Control+Enter");
  await expect(author.page.getByTestId("node-comments").getByRole("alert")).toContainText(`@${GRADER.email} is not`);
  await expect(box).toHaveValue(`cc @${GRADER.email}`);
});

test("comments and presence check who is asking", async ({ asUser, playwright, baseURL }) => {
  const paperId = `e2e-comments-auth-${Date.now()}`;
  const staff = await asUser(STAFF);
  await paperWithDemoRubric(staff, paperId);
  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.get(`/api/papers/${paperId}/rubric/comments`)).status()).toBe(401);
  expect((await anonymous.post(`/api/papers/${paperId}/rubric/presence`, { data: {} })).status()).toBe(401);
  await anonymous.dispose();

  // The grader is not a member of this paper.
  const grader = await asUser(GRADER);
  expect((await grader.request.get(`/api/papers/${paperId}/rubric/comments`)).status()).toBe(403);

  const bad = await staff.request.post(`/api/papers/${paperId}/rubric/comments`, {
    data: { nodeKey: "nope", body: "  " },
  });
  expect(bad.status()).toBe(400);
  const { error } = await bad.json();
  expect(error.details.map((d: { path: string }) => d.path).sort()).toEqual(["body", "nodeKey"]);

  // Presence of an editor that is not following the rubric: a clear 409.
  const stray = await staff.request.post(`/api/papers/${paperId}/rubric/presence`, {
    data: { session: "not-following-1234", selectedKey: null, editingKey: null },
  });
  expect(stray.status()).toBe(409);
});
