import { expect, test } from "./support/fixtures";
import { allRequirements, leakedRequirements, readDemoRubric } from "./support/files";
import { getReviewPayload, judgeGrading, listPaperGradings, ReviewPage, ReviewQueuePage } from "./support/review";
import { AUTHOR, DEMO_PAPER, GRADER, STAFF } from "./support/users";

// The seed (server/seed/seed-reviews.ts) assigns the demo grader three judged runs of the demo paper: the
// first agent's first run (whole, not blind), the second agent's first run (blind), and one
// subtree of the third agent's second run.
const WHOLE = { agent: "Demo BasicAgent · o1", run: 1 };
const SEEDED_BLIND = { agent: "Demo IterativeAgent · o3-mini", run: 1 };
const SUBTREE = { agent: "Demo BasicAgent · gpt-4o", run: 2 };
const UNASSIGNED = { agent: "Demo IterativeAgent · claude-3-5-sonnet", run: 1 };
const BLIND_BY_STAFF = { agent: "Demo IterativeAgent · claude-3-5-sonnet", run: 2 };

const RUBRIC_TEXTS = allRequirements(readDemoRubric().tree);

test.describe("grading review", () => {
  test("signed out: every grading API answers 401 and review pages send to sign-in, without rubric text or explanations", async ({
    page,
    asUser,
  }) => {
    const staff = await asUser(STAFF);
    const grading = judgeGrading(await listPaperGradings(staff.request, DEMO_PAPER.id), WHOLE.agent, WHOLE.run);
    const leafKey = (await getReviewPayload(staff.request, grading.id)).leaves[0].key;

    const calls = [
      page.request.get(`/api/gradings/${grading.id}/leaves/${leafKey}`),
      page.request.get(`/api/gradings/${grading.id}/assignments`),
      page.request.get(`/api/gradings/${grading.id}`),
      page.request.get("/api/review-queue"),
      page.request.post(`/api/gradings/${grading.id}/scores`, { data: { nodeKey: leafKey, score: 1 } }),
      page.request.post(`/api/gradings/${grading.id}/assignments`, { data: { email: GRADER.email } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status(), res.url()).toBe(401);
      const body = await res.text();
      expect(leakedRequirements(body, RUBRIC_TEXTS)).toEqual([]);
      expect(body).not.toContain("synthetic demo verdict");
    }
    for (const path of [`/gradings/${grading.id}`, "/reviews"]) {
      const res = await page.goto(path);
      await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
      const html = (await res?.text()) ?? "";
      expect(leakedRequirements(html, RUBRIC_TEXTS)).toEqual([]);
      expect(html).not.toContain("synthetic demo verdict");
    }
  });

  test("a grader sees only the gradings assigned to them; authors see their paper's gradings read-only", async ({
    asUser,
  }) => {
    const grader = await asUser(GRADER);
    const staffGradings = await listPaperGradings((await asUser(STAFF)).request, DEMO_PAPER.id);
    const assigned = [WHOLE, SEEDED_BLIND, SUBTREE].map((r) => judgeGrading(staffGradings, r.agent, r.run).id);
    const other = judgeGrading(staffGradings, UNASSIGNED.agent, UNASSIGNED.run);

    // The paper's list, the queue and the API agree: the three assigned gradings and nothing else.
    const listed = await listPaperGradings(grader.request, DEMO_PAPER.id);
    expect(listed.map((g) => g.id).sort()).toEqual([...assigned].sort());
    // Where the assignment hides verdicts, the root score is not listed either.
    expect(listed.find((g) => g.id === assigned[1])!.score).toBeNull();
    const queue = new ReviewQueuePage(grader);
    await queue.goto();
    // The demo paper's items: specs running beside this one assign the demo grader work on papers of their own.
    await expect(queue.items.filter({ hasText: DEMO_PAPER.id })).toHaveCount(3);
    for (const id of assigned) await expect(queue.item(id)).toBeVisible();

    for (const path of ["", "/files", "/export"]) {
      const res = await grader.request.get(`/api/gradings/${other.id}${path}`);
      expect(res.status(), path).toBe(403);
      const body = await res.text();
      expect(leakedRequirements(body, RUBRIC_TEXTS)).toEqual([]);
      expect(body).not.toContain("synthetic demo verdict");
    }
    const page = new ReviewPage(grader, other.id);
    await page.goto();
    await expect(grader.getByTestId("access-denied")).toContainText("not assigned to you");
    await expect(grader.getByTestId("leaf-panel")).toHaveCount(0);

    // A subtree assignment: the leaves outside it come without their verdict.
    const subtree = await getReviewPayload(grader.request, assigned[2]);
    expect(subtree.viewer.assignment?.nodeKeys).toHaveLength(1);
    const outside = subtree.leaves.filter((l) => l.hidden === "scope");
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.every((l) => l.verdict === null)).toBe(true);
    expect(subtree.leaves.some((l) => l.hidden === null && l.verdict !== null)).toBe(true);
    const refused = await grader.request.post(`/api/gradings/${assigned[2]}/scores`, {
      data: { nodeKey: outside[0].key, score: 1 },
    });
    expect(refused.status()).toBe(403);

    // An author of the paper sees any of its gradings, read-only.
    const author = await asUser(AUTHOR);
    const asAuthor = await getReviewPayload(author.request, other.id);
    expect(asAuthor.viewer.canReview).toBe(false);
    expect(asAuthor.leaves.every((l) => l.verdict !== null)).toBe(true);
    const byAuthor = await author.request.post(`/api/gradings/${other.id}/scores`, {
      data: { nodeKey: asAuthor.leaves[0].key, score: 1 },
    });
    expect(byAuthor.status()).toBe(403);
  });

  test("a grader reviews with the keyboard only, overrides a leaf with a reason, and the root score changes on screen and after reload", async ({
    asUser,
  }) => {
    const grader = await asUser(GRADER);
    const grading = judgeGrading(await listPaperGradings(grader.request, DEMO_PAPER.id), WHOLE.agent, WHOLE.run);
    const verdicts = new Map(
      (await getReviewPayload(grader.request, grading.id)).leaves.map((l) => [l.key, l.verdict?.score]),
    );
    const verdictOf = (key: string) => verdicts.get(key);
    const review = new ReviewPage(grader, grading.id);
    await review.open();
    // Every demo run holds the demo repository: the grader reads it beside the verdicts.
    await expect(grader.getByTestId("file-list")).toContainText("reproduce.sh");
    await expect(review.progressCount).toHaveText("0 / 21");
    const rootBefore = (await review.rootScore.textContent())!;

    // The page opens on the first leaf to review; pressing its own score confirms it, and the page
    // moves on to the next leaf to review (auto-advance, on by default).
    const first = await review.selectedKey();
    await expect(review.selectedRow).toHaveAttribute("data-key", first);
    await grader.keyboard.press(String(await review.effective()));
    await expect(review.progressCount).toHaveText("1 / 21");
    await expect(review.row(first).getByTestId("row-reviewed")).toBeVisible();
    await expect(review.rootScore).toHaveText(rootBefore);
    await expect(review.leafPanel).not.toHaveAttribute("data-key", first);
    const second = await review.selectedKey();
    await expect(review.selectedRow).toHaveAttribute("data-key", second);
    await expect(review.selectedRow.getByTestId("row-reviewed")).toHaveCount(0);

    // The other score starts an override, which needs a reason.
    const judged = await review.effective();
    const changed = 1 - judged;
    await grader.keyboard.press(String(changed));
    await expect(review.reason).toBeFocused();
    await grader.keyboard.press("Enter");
    // Without a reason nothing is committed.
    await expect(review.progressCount).toHaveText("1 / 21");
    await expect(review.rootScore).toHaveText(rootBefore);
    await grader.keyboard.type("The training loop does clip per tensor (train.py, line 40).");
    await grader.keyboard.press("Enter");
    await expect(review.rootScore).not.toHaveText(rootBefore);
    const rootAfter = (await review.rootScore.textContent())!;
    await expect(review.progressCount).toHaveText("2 / 21");
    await expect(review.leafPanel).not.toHaveAttribute("data-key", second);
    // k goes back to it.
    await grader.keyboard.press("k");
    await expect(review.leafPanel).toHaveAttribute("data-key", second);
    await expect(review.effectiveScore.locator("[data-score]")).toHaveAttribute("data-score", String(changed));
    await expect(review.row(second).getByTestId("badge-overridden")).toBeVisible();
    await review.expectSaved();
    await expect(review.history).toContainText("The training loop does clip per tensor");
    // Both the verdict's score and the human-adjusted one are on screen.
    await expect(review.judgeScore.locator("[data-score]")).toHaveAttribute("data-score", String(verdictOf(second)));
    await expect(review.rootJudgeScore).toBeVisible();

    // k, j walk the leaves; n jumps over reviewed leaves to the next unreviewed one.
    await grader.keyboard.press("k");
    await expect(review.leafPanel).toHaveAttribute("data-key", first);
    await grader.keyboard.press("j");
    await expect(review.leafPanel).toHaveAttribute("data-key", second);
    await grader.keyboard.press("k");
    await grader.keyboard.press("n");
    await expect(review.leafPanel).not.toHaveAttribute("data-key", first);
    await expect(review.leafPanel).not.toHaveAttribute("data-key", second);
    await expect(review.selectedRow.getByTestId("row-reviewed")).toHaveCount(0);

    // ? shows the shortcuts and hides them again.
    await grader.keyboard.press("?");
    await expect(review.shortcuts).toBeVisible();
    await grader.keyboard.press("?");
    await expect(review.shortcuts).toHaveCount(0);

    // The server kept it: the same root after a reload, and in the API.
    await grader.reload();
    await expect(review.leafPanel).toBeVisible();
    await expect(review.rootScore).toHaveText(rootAfter);
    await expect(review.progressCount).toHaveText("2 / 21");
    const payload = await getReviewPayload(grader.request, grading.id);
    expect(`${((payload.rootScore ?? NaN) * 100).toFixed(2)}%`).toBe(rootAfter);
    expect(payload.leaves.find((l) => l.key === second)).toMatchObject({ override: changed, mine: changed });
  });

  test("a blind assignment hides the judge's verdict until the grader commits a score", async ({ asUser }) => {
    const staff = await asUser(STAFF);
    const grading = judgeGrading(
      await listPaperGradings(staff.request, DEMO_PAPER.id),
      BLIND_BY_STAFF.agent,
      BLIND_BY_STAFF.run,
    );
    const asStaff = new ReviewPage(staff, grading.id);
    await asStaff.open();
    await asStaff.assign(GRADER.email, { blind: true });

    const grader = await asUser(GRADER);
    // The server sends no verdict, explanation or score before the grader commits.
    const res = await grader.request.get(`/api/gradings/${grading.id}`);
    const body = await res.text();
    expect(body).not.toContain("synthetic demo verdict");
    const payload = await getReviewPayload(grader.request, grading.id);
    expect(payload.viewer.assignment).toMatchObject({ blind: true, nodeKeys: null });
    expect(payload.rootScore).toBeNull();
    expect(payload.leaves.every((l) => l.hidden === "blind" && l.verdict === null && l.override === null)).toBe(true);
    const leafKey = payload.leaves[0].key;
    const before = await grader.request.get(`/api/gradings/${grading.id}/leaves/${leafKey}`);
    expect(await before.json()).toMatchObject({ hidden: "blind", verdict: null, overrides: [], reviews: [] });
    for (const path of ["", "/export"]) {
      const text = await (await grader.request.get(`/api/gradings/${grading.id}${path}`)).text();
      expect(text, path).not.toContain("synthetic demo verdict");
    }

    const review = new ReviewPage(grader, grading.id);
    await review.open();
    await expect(review.rootScore).toHaveText("—");
    await expect(review.verdictHidden).toBeVisible();
    await expect(review.judgeScore).toHaveCount(0);
    await expect(review.explanation).toHaveCount(0);
    const key = await review.selectedKey();
    await expect(review.row(key).getByTestId("badge-hidden")).toBeVisible();

    // Committing a score (keyboard) reveals this leaf's verdict, and only this one's (the page stays
    // on the leaf: auto-advance off).
    await review.autoAdvance.uncheck();
    await grader.keyboard.press("1");
    await expect(review.verdictHidden).toHaveCount(0);
    await expect(review.judgeScore).toBeVisible();
    await expect(review.explanation).toContainText("synthetic demo verdict");
    await expect(review.leafPanel.getByTestId("leaf-mine")).toHaveText("You committed 1");
    await review.expectSaved();
    const after = await getReviewPayload(grader.request, grading.id);
    const revealed = after.leaves.find((l) => l.key === key)!;
    expect(revealed.hidden).toBeNull();
    expect(revealed.verdict).not.toBeNull();
    expect(after.leaves.filter((l) => l.hidden === "blind")).toHaveLength(after.leaves.length - 1);
    // Whatever the verdict, nothing waits on the grader (a differing blind score overrides it,
    // marked "Blind review"): j goes on to the next, still blind, leaf.
    await grader.keyboard.press("j");
    await expect(review.verdictHidden).toBeVisible();

    // Staff see the grader's progress.
    await asStaff.page.reload();
    await asStaff.assignButton.click();
    await expect(asStaff.assignmentRow(GRADER.email).getByTestId("assignment-progress")).toHaveText("1/21");
  });
});
