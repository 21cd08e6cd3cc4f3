import type { Page } from "@playwright/test";
import type { ReviewLeafDetail } from "../lib/review/types";
import type { RubricJson } from "./support/files";
import { expect, test } from "./support/fixtures";
import { freshPaper, importSmallGrading, keysOf, withdrawAssignments } from "./support/fresh-grading";
import { holdFirstRead } from "./support/held-read";
import { getReviewPayload, ReviewPage } from "./support/review";
import { GRADER, STAFF } from "./support/users";

// Issue 21, bugs 4 and 5: the Graders dialog assigns the whole grading unless staff pick a subtree
// (the page always has a leaf selected), and a blind score that differs from the verdict becomes an
// override marked "Blind review" without taking the focus, so the keyboard goes on.

const leaf = (id: string, requirements: string): RubricJson => ({
  id,
  requirements,
  weight: 1,
  sub_tasks: [],
  task_category: "Code Development",
  finegrained_task_category: null,
});
const RUBRIC: RubricJson = {
  id: "root",
  requirements: "The clipping paper has been reproduced",
  weight: 1,
  task_category: null,
  finegrained_task_category: null,
  sub_tasks: [
    {
      id: "training",
      requirements: "Training runs",
      weight: 2,
      task_category: null,
      finegrained_task_category: null,
      sub_tasks: [
        leaf("warmup", "The model is trained without a warmup schedule"),
        leaf("clip", "Gradients are clipped adaptively by their running norm"),
        leaf("seeds", "Each configuration is run with three seeds"),
      ],
    },
    {
      id: "results",
      requirements: "Results",
      weight: 1,
      task_category: null,
      finegrained_task_category: null,
      sub_tasks: [leaf("table", "The loss table is reported"), leaf("plot", "The loss curve is plotted")],
    },
  ],
};
const VERDICT: Record<string, number> = { warmup: 1, clip: 0, seeds: 1, table: 0, plot: 1 };
const LEAVES = Object.keys(VERDICT).length;

/** Gradings this file made: their assignments are withdrawn after each test (see afterEach). */
const made: string[] = [];

/** A fresh paper with the rubric above, the demo grader as its grader, and one judged grading; its id. */
async function freshGrading(staff: Page): Promise<string> {
  const paperId = await freshPaper(staff, "e2e-graders-blind", RUBRIC);
  const gradingId = await importSmallGrading(staff, paperId, VERDICT, {
    rubric: RUBRIC,
    explain: (id) => `Judge checked ${id} in the code.`,
  });
  const list = (await (await staff.request.get(`/api/papers/${paperId}/gradings`)).json()) as {
    gradings: { id: string }[];
  };
  expect(list.gradings.map((g) => g.id)).toEqual([gradingId]);
  made.push(gradingId);
  return gradingId;
}

test.describe("graders and blind review", () => {
  // The demo grader's queue is shared with other specs (review.spec.ts counts it): leave it as found.
  test.afterEach(async ({ asUser }) => {
    await withdrawAssignments(await asUser(STAFF), made.splice(0));
  });

  test("Graders assigns the whole grading by default; a subtree only when staff pick it", async ({ asUser }) => {
    const staff = await asUser(STAFF);
    const gradingId = await freshGrading(staff);
    const keys = await keysOf(staff, gradingId);
    const review = new ReviewPage(staff, gradingId);
    await review.open();
    // The page opens on the first leaf, which is what "Selected subtree" would offer.
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.warmup);

    await review.assignButton.click();
    const dialog = review.assignmentsDialog;
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("assign-scope-all")).toBeChecked();
    // The subtree is still offered, just not chosen.
    await expect(dialog.getByTestId("assign-scope-subtree")).toBeEnabled();
    await expect(dialog.getByTestId("assign-scope-subtree")).not.toBeChecked();
    await dialog.getByTestId("assign-email").fill(GRADER.email);
    const answered = staff.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().endsWith(`/api/gradings/${gradingId}/assignments`),
    );
    await dialog.getByTestId("assign-submit").click();
    const res = await answered;
    expect(res.status()).toBe(201);
    expect(res.request().postDataJSON()).toMatchObject({ email: GRADER.email, nodeKeys: null, blind: false });
    const row = review.assignmentRow(GRADER.email);
    await expect(row.getByTestId("assignment-scope")).toHaveText("Whole grading");
    await expect(row.getByTestId("assignment-progress")).toHaveText(`0/${LEAVES}`);

    // The grader gets every leaf.
    const grader = await asUser(GRADER);
    const mine = await getReviewPayload(grader.request, gradingId);
    expect(mine.viewer.assignment).toMatchObject({ nodeKeys: null, blind: false });
    expect(mine.leaves.filter((l) => l.hidden === null)).toHaveLength(LEAVES);

    // "Assign this subtree…" on a node starts on that subtree.
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
    await review.row(keys.training).getByTestId("row-text").click();
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.training);
    await review.leafPanel.getByTestId("assign-subtree").click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("assign-scope-subtree")).toBeChecked();
    await expect(dialog.getByTestId("assign-subtree-label")).toHaveText("Selected subtree: Training runs");
    // And Graders, with that node selected, starts on the whole grading again.
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
    await review.assignButton.click();
    await expect(dialog.getByTestId("assign-scope-all")).toBeChecked();
    await expect(dialog.getByTestId("assign-subtree-label")).toHaveText("Selected subtree: Training runs");
  });

  test("a blind score that differs from the verdict overrides it, marked Blind review, and j / k keep working", async ({
    asUser,
  }) => {
    const staff = await asUser(STAFF);
    const gradingId = await freshGrading(staff);
    const keys = await keysOf(staff, gradingId);
    const assigned = await staff.request.post(`/api/gradings/${gradingId}/assignments`, {
      data: { email: GRADER.email, blind: true },
    });
    expect(assigned.status(), await assigned.text()).toBe(201);
    const rootBefore = (await getReviewPayload(staff.request, gradingId)).rootScore;

    const grader = await asUser(GRADER);
    // The leaf's first read (its history, before the score) is answered at once but reaches the page
    // only after the score is committed, as on a loaded machine when the grader is quick.
    const firstRead = await holdFirstRead(grader, `**/api/gradings/${gradingId}/leaves/${keys.clip}`);
    await grader.goto(`/gradings/${gradingId}?leaf=${keys.clip}`);
    const review = new ReviewPage(grader, gradingId);
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.clip);
    await expect(review.verdictHidden).toBeVisible();
    await review.autoAdvance.uncheck();
    await firstRead.answered;

    // The judge said 0; the grader, blind, says 1.
    const committed = grader.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().endsWith(`/api/gradings/${gradingId}/scores`),
    );
    await grader.keyboard.press("1");
    expect((await committed).status()).toBe(201);
    // The verdict shows once the page has taken the answer, in the same step that asks for the
    // leaf again: only then may the held first read arrive.
    await expect(review.verdictHidden).toHaveCount(0);
    firstRead.deliver();
    await review.expectSaved();
    await expect(review.judgeScore.locator("[data-score]")).toHaveAttribute("data-score", "0");
    await expect(review.effectiveScore.locator("[data-score]")).toHaveAttribute("data-score", "1");
    await expect(review.leafPanel.getByTestId("leaf-mine")).toHaveText("You committed 1");
    // Nothing waits on the grader: the reason box did not take the focus.
    await expect(review.reason).toBeVisible();
    await expect(review.reason).not.toBeFocused();
    await expect(review.reason).toHaveValue("");
    // The override, in the leaf's history, marked "Blind review".
    const entry = review.history.locator('[data-testid="history-entry"][data-kind="override"]');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText("overrode 0 → 1");
    await expect(entry.getByTestId("history-blind")).toHaveText("Blind review");
    const detail = (await (
      await grader.request.get(`/api/gradings/${gradingId}/leaves/${keys.clip}`)
    ).json()) as ReviewLeafDetail;
    expect(detail.overrides).toHaveLength(1);
    expect(detail.overrides[0]).toMatchObject({ oldScore: 0, newScore: 1 });
    expect(detail.overrides[0].reason).toMatch(/^Blind review/);
    expect(detail.reviews).toEqual([
      expect.objectContaining({ blind: true, score: 1, overrideId: detail.overrides[0].id }),
    ]);
    // Staff see it count: the leaf is 1 and the root moved.
    const staffView = await getReviewPayload(staff.request, gradingId);
    expect(staffView.leaves.find((l) => l.key === keys.clip)).toMatchObject({ override: 1 });
    expect(staffView.rootScore).not.toBe(rootBefore);

    // The shortcuts go on: k to the previous leaf, j back, and nothing was typed anywhere.
    await grader.keyboard.press("k");
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.warmup);
    await expect(review.verdictHidden).toBeVisible();
    await grader.keyboard.press("j");
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.clip);
    await expect(review.reason).toHaveValue("");

    // A blind score that agrees is a mark only.
    await grader.keyboard.press("j");
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.seeds);
    await grader.keyboard.press("1");
    await review.expectSaved();
    await expect(review.judgeScore.locator("[data-score]")).toHaveAttribute("data-score", "1");
    await expect(review.reason).not.toBeFocused();
    const agreed = (await getReviewPayload(grader.request, gradingId)).leaves.find((l) => l.key === keys.seeds)!;
    expect(agreed).toMatchObject({ mine: 1, override: null, hidden: null });
    await grader.keyboard.press("k");
    await expect(review.leafPanel).toHaveAttribute("data-key", keys.clip);
  });
});
