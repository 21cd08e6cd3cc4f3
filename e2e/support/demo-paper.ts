import { expect, type Page } from "@playwright/test";
import fs from "node:fs/promises";
import { EditorPage } from "./editor";
import { DEMO_RUBRIC_PATH } from "./files";
import { AUTHOR, STAFF, type DemoUser } from "./users";

/**
 * Staff (signed in on `staff`) create a paper of the test's own with the demo rubric and make the
 * demo author its author, through the API; the seeded demo paper stays as it is for other specs.
 */
export async function paperWithDemoRubric(staff: Page, paperId: string): Promise<void> {
  expect((await staff.request.post("/api/papers", { data: { id: paperId, title: `Paper ${paperId}` } })).status()).toBe(
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
 * Two people about to edit one rubric together: a paper of the test's own (`<prefix>-<time>`) with the
 * demo rubric, and editors for its author and for staff, each in its own browser context, not opened yet.
 */
export async function coEditorsOnFreshPaper(
  asUser: (user: DemoUser) => Promise<Page>,
  prefix: string,
): Promise<{ paperId: string; author: EditorPage; staff: EditorPage }> {
  const paperId = `${prefix}-${Date.now()}`;
  const staffPage = await asUser(STAFF);
  await paperWithDemoRubric(staffPage, paperId);
  return { paperId, author: new EditorPage(await asUser(AUTHOR), paperId), staff: new EditorPage(staffPage, paperId) };
}
