import { expect, test } from "./support/fixtures";
import { freshPaper, importSmallGrading, keysOf, withdrawAssignments } from "./support/fresh-grading";
import { ReviewPage } from "./support/review";
import { screenshots } from "./support/screenshots";
import { GRADER, STAFF } from "./support/users";

// Issue 21, "two graders, one submission" (Label Studio): when two people review the same leaves
// of a grading, the studio shows their agreement (Cohen's κ and F1 per task category) beside the
// verdicts' agreement with each of them; with one reviewer it says so.

const made: string[] = [];

test.describe("agreement between graders", () => {
  test.afterEach(async ({ asUser }) => {
    await withdrawAssignments(await asUser(STAFF), made.splice(0));
  });

  test("two graders on the same leaves: κ and F1 per category beside the judge's agreement with each; one grader: says so", async ({
    asUser,
  }, testInfo) => {
    const staff = await asUser(STAFF);
    const paperId = await freshPaper(staff, "e2e-agreement");
    const gradingId = await importSmallGrading(staff, paperId, { clip: 1, warmup: 0, seeds: 1, table: 0, plot: 1 });
    made.push(gradingId);
    const keys = await keysOf(staff, gradingId);
    const score = async (page: typeof staff, leaf: string, value: number) => {
      const res = await page.request.post(`/api/gradings/${gradingId}/scores`, {
        data: { nodeKey: keys[leaf], score: value, reason: "checked the code" },
      });
      expect(res.status(), await res.text()).toBe(201);
    };

    // The grader, blind, scores every leaf.
    expect(
      (
        await staff.request.post(`/api/gradings/${gradingId}/assignments`, {
          data: { email: GRADER.email, blind: true },
        })
      ).status(),
    ).toBe(201);
    const grader = await asUser(GRADER);
    for (const [leaf, value] of [
      ["clip", 1],
      ["warmup", 1],
      ["seeds", 1],
      ["table", 0],
      ["plot", 0],
    ] as const)
      await score(grader, leaf, value);

    // One person so far: no agreement between graders yet, and it says why.
    const review = new ReviewPage(staff, gradingId);
    await review.open();
    await review.root.getByTestId("agreement-button").click();
    const dialog = staff.getByTestId("agreement-dialog");
    await expect(dialog.getByTestId("agreement-empty")).toContainText(`Only ${GRADER.name} has reviewed this grading`);
    await expect(dialog.getByTestId("agreement-verdicts").getByTestId("agreement-row")).toHaveCount(1);
    await screenshots(staff, testInfo, "agreement-one-grader");
    await dialog.getByRole("button", { name: "Close" }).click();

    // Staff review the same leaves: agree on clip, seeds, table; differ on warmup and plot.
    for (const [leaf, value] of [
      ["clip", 1],
      ["warmup", 0],
      ["seeds", 1],
      ["table", 0],
      ["plot", 1],
    ] as const)
      await score(staff, leaf, value);
    await review.open();
    await review.root.getByTestId("agreement-button").click();
    const between = dialog.getByTestId("agreement-graders").getByTestId("agreement-row");
    await expect(between).toHaveCount(1);
    await expect(between).toHaveAttribute("data-pair", new RegExp(`${GRADER.name}|${STAFF.name}`));
    // By hand, all five leaves: both 1 on clip, seeds; both 0 on table; one each way on warmup, plot.
    // pₒ = 3/5; the grader says 1 on 3/5, staff on 3/5: pₑ = 9/25 + 4/25 = 13/25; κ = (15/25 − 13/25) / (12/25) = 1/6.
    // F1: class 1: 2·2 / (3 + 3) = 2/3; class 0: 2·1 / (2 + 2) = 1/2; macro 7/12 = 0.58.
    const overall = between.getByTestId("agreement-overall");
    await expect(overall.getByTestId("kappa")).toHaveText("0.17");
    await expect(overall.getByTestId("f1")).toHaveText("0.58");
    await expect(overall).toContainText("n 5 · agree 3");
    // Code Development (clip, warmup): pₒ = 1/2; the grader 1 on both, staff on one: pₑ = 1/2; κ = 0; F1 (2/3 + 0) / 2.
    const cd = between.getByTestId("agreement-code-development");
    await expect(cd.getByTestId("kappa")).toHaveText("0.00");
    await expect(cd.getByTestId("f1")).toHaveText("0.33");
    // Result Analysis (table): both 0, one label throughout: κ is undefined.
    await expect(between.getByTestId("agreement-result-analysis").getByTestId("kappa")).toHaveText("—");
    // Beside it: the judge against each of them.
    await expect(dialog.getByTestId("agreement-verdicts").getByTestId("agreement-row")).toHaveCount(2);
    await screenshots(staff, testInfo, "agreement-two-graders");
  });
});
