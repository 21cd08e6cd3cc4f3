import type { Page, Response } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { EditorPage } from "./support/editor";
import { judgeGrading, listPaperGradings, ReviewPage } from "./support/review";
import { DEMO_PAPER, STAFF } from "./support/users";

/**
 * Security headers (issue 10, item 15): every page answers with a Content-Security-Policy that
 * forbids framing, plus X-Frame-Options, Referrer-Policy and X-Content-Type-Options, and works
 * under that policy: no page logs a CSP violation while it loads and is used (Chromium reports a
 * blocked script, style, image or connection both on the console and as a
 * `securitypolicyviolation` event; both are collected).
 */

/** CSP violations of `page` from now on, as "<url>: <what>". */
function cspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|csp-violation/i.test(msg.text())) found.push(`${page.url()}: ${msg.text()}`);
  });
  return found;
}

async function reportViolationEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(
        `csp-violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
}

function expectSecurityHeaders(res: Response | null, path: string): void {
  expect(res, path).not.toBeNull();
  const headers = res!.headers();
  expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"], path).toContain("default-src 'self'");
  expect(headers["x-frame-options"], path).toBe("DENY");
  expect(headers["referrer-policy"], path).toBe("same-origin");
  expect(headers["x-content-type-options"], path).toBe("nosniff");
}

test("the sign-in page carries the security headers and loads without a CSP violation", async ({ page }) => {
  await reportViolationEvents(page);
  const violations = cspViolations(page);
  const res = await page.goto("/signin");
  expectSecurityHeaders(res, "/signin");
  await expect(page.locator('input[name="email"]:not([type="hidden"])')).toBeVisible();
  await page.waitForLoadState("load");
  expect(violations).toEqual([]);
});

test("every page, as staff, carries the security headers and works without a CSP violation", async ({ asUser }) => {
  test.setTimeout(180_000); // eleven pages and the editor's panels, one after another
  const page = await asUser(STAFF);
  await reportViolationEvents(page);
  const violations = cspViolations(page);
  const grading = judgeGrading(await listPaperGradings(page.request, DEMO_PAPER.id), "Demo BasicAgent · o1", 1);

  const visit = async (path: string, ready: () => Promise<void>) => {
    const res = await page.goto(path);
    expectSecurityHeaders(res, path);
    await ready();
    await page.waitForLoadState("load");
  };
  const visible = (testId: string) => () => expect(page.getByTestId(testId).first()).toBeVisible();

  await visit("/", visible("paper-list"));
  await visit(`/papers/${DEMO_PAPER.id}`, visible("paper-title"));
  await visit(`/papers/${DEMO_PAPER.id}/edit`, () => expect(page.locator("main form").first()).toBeVisible());
  await visit("/papers/new", () => expect(page.locator("main form").first()).toBeVisible());

  // The rubric editor, with its side panels: comments, lint, summary, versions (history), deleted.
  const editor = new EditorPage(page, DEMO_PAPER.id);
  await visit(`/papers/${DEMO_PAPER.id}/rubric`, () => expect(editor.editor).toBeVisible());
  await expect(editor.rows.first()).toBeVisible();
  for (const tab of ["comments", "lint", "summary", "versions", "deleted", "inspector"]) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId(`tab-${tab}`)).toHaveAttribute("aria-selected", "true");
  }
  await editor.rows.first().getByTestId("row-text").click();
  const nodeHistory = page.getByTestId("node-history");
  await nodeHistory.locator("summary").click();
  await expect(
    nodeHistory.getByTestId("node-history-item").first().or(nodeHistory.getByText("No changes since")),
  ).toBeVisible();

  await visit("/reviews", () =>
    expect(page.getByTestId("review-queue").or(page.getByTestId("queue-empty")).first()).toBeVisible(),
  );
  const review = new ReviewPage(page, grading.id);
  await visit(`/gradings/${grading.id}`, async () => {
    await expect(review.root).toBeVisible();
    await expect(review.leafPanel).toBeVisible();
  });
  // The board lists the seeded agents: ranked, or (once earlier specs graded other papers, so no
  // run is complete) unranked with their coverage, never a blank board.
  await visit("/leaderboard", () => expect(page.getByTestId("leaderboard-row").first()).toBeVisible());
  await visit("/judge-eval", () =>
    expect(page.getByTestId("judge-eval-selection").or(page.getByTestId("judge-eval-empty")).first()).toBeVisible(),
  );
  await visit(`/papers/${DEMO_PAPER.id}/judge-eval`, () =>
    expect(page.getByTestId("judge-eval-selection").or(page.getByTestId("judge-eval-empty")).first()).toBeVisible(),
  );

  expect(violations).toEqual([]);
});

test("a page of the studio cannot be framed by another page", async ({ page, baseURL }) => {
  const violations = cspViolations(page);
  // about:blank stands in for another site that frames the sign-in page; Chromium refuses
  // (frame-ancestors 'none') and says so on the framing page's console.
  await page.setContent(`<iframe src="${baseURL}/signin"></iframe>`);
  await expect.poll(() => violations.filter((v) => v.includes("frame-ancestors")).length).toBeGreaterThan(0);
});
