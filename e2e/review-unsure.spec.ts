import { expect, test } from "./support/fixtures";
import { freshPaper, importSmallGrading, keysOf, withdrawAssignments } from "./support/fresh-grading";
import { ReviewPage } from "./support/review";
import { screenshots } from "./support/screenshots";
import { GRADER, STAFF } from "./support/users";

// Issue 21, "skip / unsure in the review queue" (Label Studio): a grader marks a leaf unsure with a
// note (u, then Enter) and moves on; the leaf stays unreviewed but flagged; staff filter the tree
// on it, read the note and clear the flag.

const made: string[] = [];

test.describe("unsure leaves", () => {
  test.afterEach(async ({ asUser }) => {
    await withdrawAssignments(await asUser(STAFF), made.splice(0));
  });

  test("a grader marks a leaf unsure with a note and moves on; staff filter on it, read the note and clear it", async ({
    asUser,
  }, testInfo) => {
    const staff = await asUser(STAFF);
    const paperId = await freshPaper(staff, "e2e-unsure");
    const gradingId = await importSmallGrading(staff, paperId, { clip: 1, warmup: 0, seeds: 1, table: 0, plot: 1 });
    made.push(gradingId);
    const keys = await keysOf(staff, gradingId);
    expect(
      (await staff.request.post(`/api/gradings/${gradingId}/assignments`, { data: { email: GRADER.email } })).status(),
    ).toBe(201);

    // The grader, on the first leaf: u opens the note, Enter flags the leaf and moves on.
    const grader = await asUser(GRADER);
    const review = new ReviewPage(grader, gradingId);
    await review.open();
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.clip);
    await grader.keyboard.press("u");
    const note = review.leafPanel.getByTestId("unsure-note-input");
    await expect(note).toBeFocused();
    await note.fill("Which norm does “running” mean here?");
    const flagged = grader.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().endsWith(`/api/gradings/${gradingId}/unsure`),
    );
    await grader.keyboard.press("Enter");
    expect((await flagged).status()).toBe(201);
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.warmup);
    // The flagged leaf: unreviewed, with its badge in the tree; the filter counts it.
    await expect(review.row(keys.clip).getByTestId("badge-unsure")).toBeVisible();
    await expect(review.progressCount).toHaveText("0 / 5");
    await expect(grader.getByTestId("filter-unsure")).toHaveText("Unsure (1)");
    // The keyboard goes on (the note box is gone with the flag): j / k, and n skips the flagged leaf.
    await grader.keyboard.press("k");
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.clip);
    await expect(review.leafPanel.getByTestId("unsure-note")).toHaveText("“Which norm does “running” mean here?”");
    await expect(review.leafPanel.getByTestId("unsure-note-input")).toHaveCount(0);
    await grader.keyboard.press("n");
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.warmup);
    // u is listed with the shortcuts.
    await grader.keyboard.press("?");
    await expect(review.shortcuts).toContainText("Unsure: write a note for staff");
    await grader.keyboard.press("?");
    await expect(review.shortcuts).toHaveCount(0);
    await grader.keyboard.press("k");
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.clip);
    await screenshots(grader, testInfo, "unsure-grader");

    // Staff: the filter keeps the flagged leaf; its note and who wrote it show; Clear removes the flag.
    const staffReview = new ReviewPage(staff, gradingId);
    await staffReview.open();
    await staff.getByTestId("filter-unsure").click();
    await expect(staff.getByTestId("filter-count")).toContainText("1 leaf");
    await expect(staffReview.rows.filter({ has: staff.getByTestId("badge-unsure") })).toHaveCount(1);
    await staffReview.row(keys.clip).getByTestId("row-text").click();
    const flag = staffReview.leafPanel.getByTestId("unsure-flag");
    await expect(flag).toContainText(GRADER.name);
    await expect(flag.getByTestId("unsure-note")).toHaveText("“Which norm does “running” mean here?”");
    await screenshots(staff, testInfo, "unsure-staff");
    const cleared = staff.waitForResponse(
      (r) => r.request().method() === "DELETE" && r.url().includes(`/api/gradings/${gradingId}/unsure`),
    );
    await flag.getByTestId("unsure-clear").click();
    expect((await cleared).status()).toBe(200);
    await expect(staffReview.leafPanel.getByTestId("unsure-flag")).toHaveCount(0);
    await expect(staff.getByTestId("filter-unsure")).toHaveText("Unsure (0)");
    await expect(staff.getByTestId("filter-count")).toContainText("0 leaves");
    // And for the grader it is gone too.
    const payload = (await (await grader.request.get(`/api/gradings/${gradingId}`)).json()) as {
      leaves: { key: string; unsure: unknown[]; mine: number | null }[];
    };
    expect(payload.leaves.find((l) => l.key === keys.clip)).toMatchObject({ unsure: [], mine: null });
  });
});
