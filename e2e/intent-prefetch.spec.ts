import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { fetchedFrom, nextPageFetch } from "./support/page-fetches";
import { judgeGrading, listPaperGradings } from "./support/review";
import { DEMO_PAPER, STAFF } from "./support/users";

// The editor's and the review page's own links (back to the paper, Compare, the submission) fetch
// their page when the pointer reaches one, as the header's do: a prefetch on sight rendered those
// pages on the studio's server while the editor or the review page was still loading its data.

/** Hovers `link` and waits for the fetch of its page. */
async function hoverFetches(page: Page, linkName: string, pathname: string): Promise<void> {
  const fetch = nextPageFetch(page, pathname);
  await page.getByRole("link", { name: linkName, exact: true }).hover();
  await fetch;
}

test("the editor and the review page fetch the pages they link to on hover, not while they load", async ({
  asUser,
}) => {
  const page = await asUser(STAFF);
  await page.setViewportSize({ width: 1440, height: 900 });
  const paperPage = `/papers/${DEMO_PAPER.id}`;
  // The pointer rests away from every link (where it was left may be over one once the page draws).
  await page.mouse.move(1400, 880);

  // The editor: every request of its load has been made once the network is quiet.
  const editorPath = `${paperPage}/rubric`;
  const fromEditor = fetchedFrom(page, editorPath);
  await page.goto(editorPath, { waitUntil: "networkidle" });
  await expect(page.getByRole("treeitem").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the paper" })).toBeInViewport();
  expect(fromEditor, "pages fetched while the editor loaded").toEqual([]);
  await hoverFetches(page, "Back to the paper", paperPage);
  // Seen from this page (so the empty list above means none, not a filter that misses them).
  expect(fromEditor).toContain(paperPage);

  // The review page of a judged demo run: back to the paper and Compare in view.
  const grading = judgeGrading(await listPaperGradings(page.request, DEMO_PAPER.id), "Demo BasicAgent · o1", 1);
  const reviewPath = `/gradings/${grading.id}`;
  const fromReview = fetchedFrom(page, reviewPath);
  await page.goto(reviewPath, { waitUntil: "networkidle" });
  await expect(page.getByTestId("leaf-panel")).toBeVisible();
  const compare = page.getByRole("link", { name: "Compare", exact: true });
  await expect(compare).toBeInViewport();
  expect(fromReview, "pages fetched while the review page loaded").toEqual([]);
  const comparePath = new URL((await compare.getAttribute("href"))!, page.url()).pathname;
  await hoverFetches(page, "Compare", comparePath);
  await hoverFetches(page, "Back to the paper", paperPage);
  // A page fetch may take several requests (its route tree, then its segments).
  expect([...new Set(fromReview)]).toEqual([comparePath, paperPage]);
});
