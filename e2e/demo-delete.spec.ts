/**
 * Demo honesty (issue 11, items 2 and 10): every page says while the studio holds demo data, the
 * sign-in page lists the demo accounts in the embedded mode, and staff delete the demo in one
 * action after confirming; real data stays.
 *
 * It deletes the demo that every other spec uses, so it runs last: playwright.config.ts puts it in
 * a project of its own that depends on the project of every other spec.
 */
import { expect, test, type Page, type Response } from "@playwright/test";
import fs from "node:fs/promises";
import { gradedDemoText } from "../test/blind-review";
import { signedInContext } from "./support/fixtures";
import { DEMO_RUBRIC_PATH } from "./support/files";
import { HomePage, SiteHeader } from "./support/pages";
import { DEMO_PAPER, DEMO_USERS, GRADER, STAFF } from "./support/users";

// Serial: the second test deletes what the first looks at. Each signs in and walks several pages.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const REAL_PAPER = "e2e-real-after-demo";
const REAL_AGENT = "BasicAgent · e2e-real-model";

const notice = (page: Page) => page.getByTestId("demo-notice");

/** Fails the test on any 404 for an icon (the favicon every page asked for). */
function watchIcons(page: Page): Response[] {
  const missing: Response[] = [];
  page.on("response", (res) => {
    if (res.status() === 404 && /favicon|icon/i.test(new URL(res.url()).pathname)) missing.push(res);
  });
  return missing;
}

test("demo pages say so, the sign-in page lists the demo accounts, and no page misses its icon", async ({ page }) => {
  const missingIcons = watchIcons(page);
  await page.goto("/signin");
  await expect(notice(page)).toContainText("Demo data.");
  // Signed out: no one to delete it.
  await expect(notice(page).getByRole("button", { name: /Delete demo/ })).toHaveCount(0);
  const accounts = page.getByTestId("demo-account");
  await expect(accounts).toHaveCount(DEMO_USERS.length);
  for (const [i, user] of DEMO_USERS.entries()) {
    await expect(accounts.nth(i)).toContainText(user.email);
    await expect(accounts.nth(i)).toContainText(`password: ${user.password}`);
  }
  const icon = page.locator('head link[rel="icon"]');
  await expect(icon).toHaveAttribute("href", /icon\.svg/);
  const iconRes = await page.request.get((await icon.getAttribute("href"))!);
  expect(iconRes.status()).toBe(200);
  expect(iconRes.headers()["content-type"]).toContain("image/svg+xml");

  // A listed account signs in with one press.
  await accounts
    .filter({ hasText: STAFF.email })
    .getByRole("button", { name: `Sign in as ${STAFF.name} (staff)` })
    .click();
  await expect(new SiteHeader(page).currentUser).toContainText(STAFF.name);

  const home = new HomePage(page);
  await expect(home.paperLink(DEMO_PAPER.id).getByTestId("demo-badge")).toHaveText("demo");
  for (const path of ["/", `/papers/${DEMO_PAPER.id}`, "/leaderboard", "/reviews"]) {
    await page.goto(path);
    await expect(notice(page)).toBeVisible();
  }
  expect(missingIcons.map((r) => r.url())).toEqual([]);
});

test("staff delete the demo after confirming: demo pages, accounts and sessions are gone, real data stays", async ({
  page,
  browser,
  baseURL,
}) => {
  const missingIcons = watchIcons(page);
  // Real data, created by the demo staff: a paper of their own and a real agent's grading on it.
  const grader = await signedInContext(browser, GRADER, baseURL);
  await page.goto("/signin");
  await page.getByRole("button", { name: `Sign in as ${STAFF.name} (staff)` }).click();
  await expect(new SiteHeader(page).currentUser).toContainText(STAFF.name);
  expect((await page.request.post("/api/papers", { data: { id: REAL_PAPER, title: "A real paper" } })).status()).toBe(
    201,
  );
  const uploaded = await page.request.put(`/api/papers/${REAL_PAPER}/rubric`, {
    headers: { "content-type": "application/json" },
    data: await fs.readFile(DEMO_RUBRIC_PATH),
  });
  expect(uploaded.status()).toBe(200);
  const imported = await page.request.post(`/api/papers/${REAL_PAPER}/gradings`, {
    data: { file: gradedDemoText(1), agent: REAL_AGENT, run: 1 },
  });
  expect(imported.status()).toBe(201);

  await page.goto("/");
  const home = new HomePage(page);
  await expect(home.paperLink(REAL_PAPER)).toBeVisible();
  await expect(home.paperLink(REAL_PAPER).getByTestId("demo-badge")).toHaveCount(0);

  // Cancelling deletes nothing.
  await notice(page).getByRole("button", { name: "Delete demo…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete the demo?" });
  await expect(dialog).toContainText("This cannot be undone.");
  await expect(dialog.getByTestId("delete-demo-self")).toContainText("You are signed in with a demo account");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await expect(home.paperLink(DEMO_PAPER.id)).toBeVisible();

  await notice(page).getByRole("button", { name: "Delete demo…" }).click();
  await dialog.getByRole("button", { name: "Delete demo", exact: true }).click();
  // The demo staff's own account went with the demo: signed out, and no page speaks of demo data.
  await expect(new SiteHeader(page).signInLink).toBeVisible();
  await expect(notice(page)).toHaveCount(0);

  // Every demo session ended, the grader's in another browser too.
  expect((await grader.page.request.get("/api/review-queue")).status()).toBe(401);
  await grader.context.close();

  await page.goto("/signin");
  await expect(page.getByTestId("demo-accounts")).toHaveCount(0);
  await expect(notice(page)).toHaveCount(0);

  // The public board: the real agent, none of the demo's.
  // Its paper is not one of PaperBench's: with the PaperBench data the `studio` split lists it, else `all`.
  const { splits } = (await (await page.request.get("/api/leaderboard")).json()) as { splits: { name: string }[] };
  const split = splits.some((s) => s.name === "studio") ? "studio" : "all";
  await page.goto(`/leaderboard?split=${split}`);
  await expect(page.getByText(REAL_AGENT).first()).toBeVisible();
  await expect(page.getByText(/Demo (Basic|Iterative)Agent/)).toHaveCount(0);
  const board = await (await page.request.get(`/api/leaderboard?split=${split}`)).text();
  expect(board).toContain(REAL_AGENT);
  expect(board).not.toContain("Demo ");
  expect((await page.request.get("/api/leaderboard")).status()).toBe(200);
  expect(missingIcons.map((r) => r.url())).toEqual([]);
});
