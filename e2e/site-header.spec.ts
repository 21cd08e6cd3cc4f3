/**
 * The site header fits the window for staff, whose links outnumber everyone else's: at 1024×768 the
 * user's name and Sign out were pushed past the right edge. Below 1280 px the staff pages sit in one
 * "Staff" menu, which opens, leads to a page and closes; at 1440 they are inline.
 */
import { expect, test } from "./support/fixtures";
import { fetchedFrom, nextPageFetch } from "./support/page-fetches";
import { screenshots } from "./support/screenshots";
import { STAFF } from "./support/users";

const STAFF_PAGES = ["Evaluations", "JudgeEval", "Jobs", "Runners", "Judge", "Judge lab"];

test("staff see their name, Sign out and every staff page in the header at 1024 and 1440", async ({
  asUser,
}, testInfo) => {
  const page = await asUser(STAFF);
  await page.goto("/leaderboard");
  const header = page.getByRole("banner");
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
    for (const control of [header.getByTestId("current-user"), header.getByRole("button", { name: "Sign out" })]) {
      await expect(control).toBeInViewport({ ratio: 1 });
    }
    const headerWidth = await header.evaluate((el) => el.scrollWidth);
    expect(headerWidth, `header at ${width}`).toBeLessThanOrEqual(width);
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  for (const name of STAFF_PAGES) await expect(header.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(header.getByTestId("staff-menu")).toBeHidden();

  await page.setViewportSize({ width: 1024, height: 768 });
  const menu = header.getByTestId("staff-menu");
  await expect(header.getByRole("link", { name: "Jobs", exact: true })).toBeHidden();
  await menu.getByText("Staff").click();
  for (const name of STAFF_PAGES)
    await expect(menu.getByRole("link", { name, exact: true })).toBeInViewport({ ratio: 1 });
  await screenshots(page, testInfo, "staff-menu-open");
  await page.setViewportSize({ width: 1024, height: 768 });
  // screenshots() leaves the page at 1440: the menu is hidden there; back at 1024 it is still open.
  await menu.getByRole("link", { name: "Jobs", exact: true }).click();
  await page.waitForURL(/\/jobs$/);
  await expect(menu.getByRole("link", { name: "Jobs", exact: true })).toBeHidden();
  await menu.getByText("Staff").click();
  await expect(menu.getByRole("link", { name: "Runners", exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu.getByRole("link", { name: "Runners", exact: true })).toBeHidden();
});

test("the header's links fetch their page when the pointer reaches one, not while the page loads", async ({
  asUser,
}) => {
  const page = await asUser(STAFF);
  await page.setViewportSize({ width: 1440, height: 900 });
  // Fetches made from /reviews (the home page the fixture opened may still be prefetching its own links).
  const fetched = fetchedFrom(page, "/reviews");
  // Every request the page makes as it loads has been made once the network is quiet.
  await page.goto("/reviews", { waitUntil: "networkidle" });
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Jobs", exact: true })).toBeInViewport();
  // The header's pages that the page's own content does not link to (its links prefetch as they please).
  const paths = (links: Element[]) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname);
  const contentPages = await page.locator("main a[href]").evaluateAll(paths);
  const headerPages = (await header.locator("a[href]").evaluateAll(paths)).filter((p) => !contentPages.includes(p));
  expect(headerPages).toContain("/jobs");
  expect(
    fetched.filter((p) => headerPages.includes(p)),
    "header pages fetched while this one loaded",
  ).toEqual([]);

  const jobs = nextPageFetch(page, "/jobs");
  await header.getByRole("link", { name: "Jobs", exact: true }).hover();
  await jobs;
  // Fetches from this page are seen (so the empty list above means none, not a filter that misses them).
  expect(fetched).toContain("/jobs");
  await header.getByRole("link", { name: "Jobs", exact: true }).click();
  await expect(page).toHaveURL(/\/jobs$/);
});
