import { expect, test } from "./support/fixtures";
import { freshPaper, importSmallGrading, withdrawAssignments } from "./support/fresh-grading";
import { ReviewPage } from "./support/review";
import { screenshots } from "./support/screenshots";
import { GRADER, STAFF } from "./support/users";

// Issue 21, "compare two gradings of one submission" (LangSmith / Langfuse compare view): pick two
// gradings of a submission and see them leaf by leaf, differences first, with both explanations,
// both scores and both root scores; reachable from the grading and the submission.

const made: string[] = [];

test.describe("compare gradings", () => {
  test.afterEach(async ({ asUser }) => {
    await withdrawAssignments(await asUser(STAFF), made.splice(0));
  });

  test("a judge's and a person's grading of one run, leaf by leaf: differences first with both explanations; from the grading and the submission", async ({
    asUser,
  }, testInfo) => {
    const staff = await asUser(STAFF);
    const paperId = await freshPaper(staff, "e2e-compare");
    // The judge and a person disagree on warmup and table.
    const judge = await importSmallGrading(staff, paperId, { clip: 1, warmup: 1, seeds: 1, table: 0, plot: 1 });
    const human = await importSmallGrading(
      staff,
      paperId,
      { clip: 1, warmup: 0, seeds: 1, table: 1, plot: 1 },
      { human: true },
    );
    made.push(judge, human);

    // From the judge's grading: Compare opens with it as A and the other grading as B.
    const review = new ReviewPage(staff, judge);
    await review.open();
    await review.root.getByTestId("compare-link").click();
    await expect(staff).toHaveURL(new RegExp(`/submissions/[0-9a-f-]+/compare\\?a=${judge}`));
    const page = staff.getByTestId("compare-page");
    await expect(page.getByTestId("compare-pick-a")).toHaveValue(judge);
    await expect(page.getByTestId("compare-pick-b")).toHaveValue(human);
    await expect(page.getByTestId("compare-count-differs")).toHaveText("Differ: 2");
    await expect(page.getByTestId("compare-count-same")).toHaveText("Agree: 3");
    // Roots: judge (2·(1+1+1)/3 + 1·(0+1)/2) / 3 = 0.8333; person (2·(1+0+1)/3 + 1·(1+1)/2) / 3 = 0.7778.
    await expect(page.getByTestId("compare-root-a")).toHaveText("83.33%");
    await expect(page.getByTestId("compare-root-b")).toHaveText("77.78%");
    // Differences first, in the tree's order; agreeing leaves only on request.
    const leaves = page.getByTestId("compare-leaf");
    await expect(leaves).toHaveCount(2);
    await expect(leaves.nth(0)).toHaveAttribute("data-node-id", "warmup");
    await expect(leaves.nth(1)).toHaveAttribute("data-node-id", "table");
    await expect(leaves.nth(0).getByTestId("compare-status")).toHaveText("Differ");
    await expect(leaves.nth(0).getByTestId("compare-score-a")).toHaveAttribute("data-score", "1");
    await expect(leaves.nth(0).getByTestId("compare-score-b")).toHaveAttribute("data-score", "0");
    await expect(leaves.nth(0).getByTestId("compare-explanation-a")).toHaveText("The judge gave warmup 1.");
    await expect(leaves.nth(0).getByTestId("compare-explanation-b")).toHaveText("A person gave warmup 0.");
    await screenshots(staff, testInfo, "compare-differences", { fullPage: true });
    await page.getByTestId("compare-show-same").check();
    await expect(leaves).toHaveCount(5);
    await expect(leaves.nth(4)).toHaveAttribute("data-status", "same");
    // Swapping sides: the same two gradings, the other way round.
    await page.getByTestId("compare-pick-a").selectOption(human);
    await page.getByTestId("compare-pick-b").selectOption(judge);
    await expect(page.getByTestId("compare-root-a")).toHaveText("77.78%");
    await expect(staff).toHaveURL(new RegExp(`a=${human}&b=${judge}`));
    // The swapped list has settled (differences first, the person's 0 on side A) before its first link is followed.
    await expect(leaves.nth(0)).toHaveAttribute("data-node-id", "warmup");
    await expect(leaves.nth(0).getByTestId("compare-score-a")).toHaveAttribute("data-score", "0");
    // A leaf's Review link opens that grading on the leaf.
    await leaves.nth(0).getByTestId("compare-a").getByRole("link", { name: "Review" }).click();
    await expect(staff).toHaveURL(new RegExp(`/gradings/${human}\\?leaf=`));
    await expect(review.leafPanel).toBeVisible();
    await expect(review.leafPanel.getByTestId("leaf-requirements")).toHaveText(
      "The model is trained without a warmup schedule",
    );

    // From the submission's page.
    const submissionId = (await (await staff.request.get(`/api/gradings/${judge}`)).json()).grading
      .submissionId as string;
    await staff.goto(`/submissions/${submissionId}`);
    await staff.getByTestId("compare-gradings-link").click();
    await expect(page.getByTestId("compare-count-differs")).toHaveText("Differ: 2");
    await screenshots(staff, testInfo, "compare-from-submission");

    // A grader assigned only the judge's grading has nothing to compare it with.
    expect(
      (await staff.request.post(`/api/gradings/${judge}/assignments`, { data: { email: GRADER.email } })).status(),
    ).toBe(201);
    const grader = await asUser(GRADER);
    await grader.goto(`/submissions/${submissionId}/compare`);
    await expect(grader.getByTestId("compare-empty")).toContainText("one grading you may read in full");
    await screenshots(grader, testInfo, "compare-empty");
    // And naming the person's grading is refused.
    await grader.goto(`/submissions/${submissionId}/compare?a=${judge}&b=${human}`);
    await expect(grader.getByTestId("compare-error")).toContainText("not assigned to you");
  });
});
