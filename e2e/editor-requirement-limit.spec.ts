import { paperWithDemoRubric } from "./support/demo-paper";
import { EditorPage, getNodes, postOperation, rowByText } from "./support/editor";
import { readDemoRubric } from "./support/files";
import { expect, test } from "./support/fixtures";
import { screenshots } from "./support/screenshots";
import { STAFF } from "./support/users";

/**
 * A requirement over the length limit (issue 21, bug 2): the text stays in the field with the
 * reason beside it, in words, and a character count shows near the limit; the API says every
 * problem in words too, keeping the path of each for programs.
 */

test("a requirement over the limit stays in the field, with the limit said in words", async ({ asUser }, testInfo) => {
  const demo = readDemoRubric();
  const paperId = `e2e-req-limit-${Date.now()}`;
  const staff = new EditorPage(await asUser(STAFF), paperId);
  await paperWithDemoRubric(staff.page, paperId);
  await staff.open();
  await staff.page.getByTestId("expand-all").click();

  const leaf = demo.tree.sub_tasks[2].sub_tasks[0].requirements;
  await staff.select(leaf);
  // Near the limit, the count shows before anything is refused.
  await staff.inspectorRequirements.fill("a".repeat(95_000));
  await expect(staff.page.getByTestId("requirements-count")).toHaveText("95,000 / 100,000 characters");

  const pasted = "b".repeat(150_800);
  await staff.inspectorRequirements.fill(pasted);
  await staff.inspectorRequirements.press("Control+Enter");
  const alert = staff.inspector.getByRole("alert");
  await expect(alert).toHaveText("Requirement is too long: 150,800 characters, the limit is 100,000");
  await expect(staff.page.getByTestId("requirements-count")).toHaveText("150,800 / 100,000 characters");
  expect((await staff.inspectorRequirements.inputValue()).length).toBe(150_800);
  // No field paths, no rollback.
  await expect(staff.page.locator("[data-sonner-toast]")).toHaveCount(0);
  await screenshots(staff.page, testInfo, "requirement-over-limit");

  // Cut to the limit, it saves.
  const fitting = "c".repeat(100_000);
  await staff.inspectorRequirements.fill(fitting);
  await staff.inspectorRequirements.press("Control+Enter");
  await expect(alert).toHaveCount(0);
  await staff.expectSaved();
  const { nodes } = await getNodes(staff.page.request, paperId);
  expect(rowByText(nodes, fitting).requirements).toHaveLength(100_000);
});

test("the API names every problem in words and keeps each one's path", async ({ asUser }) => {
  const paperId = `e2e-req-limit-api-${Date.now()}`;
  const staff = await asUser(STAFF);
  await paperWithDemoRubric(staff, paperId);
  const { nodes } = await getNodes(staff.request, paperId);
  const leaf = nodes.find((n) => n.parentKey !== null && !nodes.some((c) => c.parentKey === n.key))!;

  const long = await postOperation(staff.request, paperId, {
    kind: "update",
    key: leaf.key,
    fields: { requirements: "x".repeat(150_800) },
  });
  expect(long.status).toBe(400);
  expect(long.body.error).toMatchObject({
    code: "bad_request",
    message: "Requirement is too long: 150,800 characters, the limit is 100,000",
    details: [{ path: "op.fields.requirements", message: "is too long: 150,800 characters, the limit is 100,000" }],
  });

  const two = await postOperation(staff.request, paperId, {
    kind: "update",
    key: leaf.key,
    fields: { nodeId: "", weight: -1 },
  });
  expect(two.status).toBe(400);
  expect(two.body.error?.message).toBe("PaperBench id must not be empty; Weight must be a number >= 0");
});
