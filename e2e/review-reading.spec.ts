import type { Page } from "@playwright/test";
import type { ReviewLeafDetail } from "../lib/review/types";
import type { RubricJson } from "./support/files";
import { expect, test } from "./support/fixtures";
import { getReviewPayload, ReviewPage } from "./support/review";
import { GRADER, STAFF } from "./support/users";

// Issue 11, items 3 and 4: readable review rows (distinguishing tail, wrapping, math, a resizable
// tree) and the scoring flow (auto-advance, the reason box for a differing score; a blind one
// overrides marked "Blind review"; a subtree grader's own tree).

const SHARED = "The MLP for solving the Convection problem has been";
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
  requirements: "The PINN paper has been reproduced",
  weight: 1,
  task_category: null,
  finegrained_task_category: null,
  sub_tasks: [
    {
      id: "convection",
      requirements: "Convection experiments",
      weight: 2,
      task_category: null,
      finegrained_task_category: null,
      sub_tasks: [
        leaf(
          "adam",
          `${SHARED} trained with the Adam optimizer for 10,000 iterations at learning rate $\\eta = 10^{-3}$`,
        ),
        leaf("lbfgs", `${SHARED} trained with the L-BFGS optimizer after Adam, with a line search`),
        leaf(
          "error",
          `${SHARED} evaluated by the relative error $\\frac{\\|u - \\hat u\\|_2}{\\|u\\|_2}$ on the test grid`,
        ),
      ],
    },
    {
      id: "results",
      requirements: "Results",
      weight: 1,
      task_category: null,
      finegrained_task_category: null,
      sub_tasks: [
        leaf("loss", "The loss $\\mathcal{L} = \\mathcal{L}_r + \\lambda \\mathcal{L}_b$ is reported for every run"),
        leaf("cost", "Costs between $5 and $10 per run are reported"),
      ],
    },
  ],
};
const VERDICT: Record<string, number> = { adam: 1, lbfgs: 0, error: 1, loss: 0, cost: 1 };

function graded(node: RubricJson): object {
  const leafVerdict = VERDICT[node.id];
  return {
    ...node,
    score: leafVerdict ?? 0,
    valid_score: true,
    explanation: node.sub_tasks.length
      ? "Aggregated score from sub-tasks."
      : `Checked: the code computes $\\nabla_\\theta \\mathcal{L}$ for ${node.id}.`,
    judge_metadata: null,
    sub_tasks: node.sub_tasks.map(graded),
  };
}

/** A fresh paper with the rubric above and one judged grading of it; returns the grading's id. */
async function mathGrading(staff: Page): Promise<string> {
  const paperId = `e2e-review-math-${Date.now()}`;
  expect(
    (await staff.request.post("/api/papers", { data: { id: paperId, title: `Review math ${paperId}` } })).status(),
  ).toBe(201);
  expect((await staff.request.put(`/api/papers/${paperId}/rubric`, { data: RUBRIC })).status()).toBe(200);
  const imported = await staff.request.post(`/api/papers/${paperId}/gradings`, {
    data: { file: graded(RUBRIC), agent: "Math agent", run: 1 },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const list = (await (await staff.request.get(`/api/papers/${paperId}/gradings`)).json()) as {
    gradings: { id: string }[];
  };
  return list.gradings[0].id;
}

/** The review page's row of the node with this PaperBench id. */
async function keyOf(page: Page, gradingId: string, nodeId: string): Promise<string> {
  const payload = await getReviewPayload(page.request, gradingId);
  return payload.nodes.find((n) => n.nodeId === nodeId)!.key;
}

interface QueueItem {
  gradingId: string;
  blind: boolean;
  nodeKeys: string[] | null;
}

async function graderQueue(grader: Page): Promise<QueueItem[]> {
  const res = await grader.request.get("/api/review-queue");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { assignments: QueueItem[] }).assignments;
}

test.describe("reading and scoring in the review page", () => {
  test("sibling rows show their distinguishing tail with math, wrap, give the full text on hover, and the tree resizes", async ({
    asUser,
  }) => {
    const staff = await asUser(STAFF);
    const gradingId = await mathGrading(staff);
    const review = new ReviewPage(staff, gradingId);
    await review.open();

    const rowText = async (id: string) => review.row(await keyOf(staff, gradingId, id)).getByTestId("row-text");
    const siblings = await Promise.all(["adam", "lbfgs", "error"].map(rowText));
    const shown = await Promise.all(siblings.map((t) => t.innerText()));
    // Each starts after an ellipsis with what sets it apart; no two read alike.
    for (const text of shown) expect(text.startsWith("…")).toBe(true);
    expect(new Set(shown.map((t) => t.slice(0, 40))).size).toBe(3);
    expect(shown[1]).toContain("L-BFGS");
    // The full text on hover (the title) and in the leaf panel.
    const lbfgs = RUBRIC.sub_tasks[0].sub_tasks[1].requirements;
    await expect(siblings[1]).toHaveAttribute("title", lbfgs);
    await siblings[1].click();
    await expect(review.leafPanel.getByTestId("leaf-requirements")).toHaveText(lbfgs);

    // Math: rendered by KaTeX in a row, in the requirement and in the explanation; prices stay text.
    await expect(siblings[0].locator(".katex")).toHaveCount(1);
    await (await rowText("loss")).click();
    await expect(review.leafPanel.getByTestId("leaf-requirements").locator(".katex")).toHaveCount(1);
    await expect(review.explanation.locator(".katex")).toHaveCount(1);
    await expect(review.explanation).toContainText("for loss.");
    const cost = await rowText("cost");
    await expect(cost).toHaveText("Costs between $5 and $10 per run are reported");
    await expect(cost.locator(".katex")).toHaveCount(0);

    // Rows wrap to two lines by default; the toggle makes them one line, and is remembered.
    const firstRow = review.rows.first();
    const height = async () => (await firstRow.boundingBox())!.height;
    expect(await height()).toBeGreaterThan(40);
    await staff.getByTestId("wrap-rows").click();
    await expect(staff.getByTestId("wrap-rows")).toHaveAttribute("aria-pressed", "false");
    await expect.poll(height).toBeLessThan(32);

    // The tree pane resizes with the keyboard and by dragging, and keeps its width after a reload.
    const tree = staff.getByRole("region", { name: "Graded tree" });
    const resizer = staff.getByTestId("tree-resizer");
    const before = (await tree.boundingBox())!.width;
    await resizer.focus();
    await staff.keyboard.press("ArrowRight");
    await staff.keyboard.press("ArrowRight");
    await expect.poll(async () => Math.round((await tree.boundingBox())!.width - before)).toBe(32);
    const box = (await resizer.boundingBox())!;
    await staff.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await staff.mouse.down();
    await staff.mouse.move(box.x + box.width / 2 - 100, box.y + box.height / 2, { steps: 5 });
    await staff.mouse.up();
    await expect.poll(async () => Math.round((await tree.boundingBox())!.width - before)).toBe(-68);
    await staff.reload();
    await expect(review.rows.first()).toBeVisible();
    await expect.poll(async () => Math.round((await tree.boundingBox())!.width - before)).toBe(-68);
    await expect(staff.getByTestId("wrap-rows")).toHaveAttribute("aria-pressed", "false");
    expect(await height()).toBeLessThan(32);
  });

  test("a committed score moves on to the next unreviewed leaf (a remembered setting); a differing score opens the reason box", async ({
    asUser,
  }) => {
    const staff = await asUser(STAFF);
    const gradingId = await mathGrading(staff);
    const [adam, lbfgs, error] = await Promise.all(["adam", "lbfgs", "error"].map((id) => keyOf(staff, gradingId, id)));
    const review = new ReviewPage(staff, gradingId);
    await review.open();
    await expect(review.leafPanel).toHaveAttribute("data-key", adam);
    await expect(review.autoAdvance).toBeChecked();

    // The verdict's own score confirms it, and the page moves on.
    await staff.keyboard.press(String(VERDICT.adam));
    await expect(review.leafPanel).toHaveAttribute("data-key", lbfgs);
    await expect(review.row(adam).getByTestId("row-reviewed")).toBeVisible();

    // The other score: nothing is committed, the reason box waits.
    await staff.keyboard.press(String(1 - VERDICT.lbfgs));
    await expect(review.reason).toBeFocused();
    await expect(review.leafPanel).toHaveAttribute("data-key", lbfgs);
    await expect(review.progressCount).toHaveText("1 / 5");
    await staff.keyboard.type("The L-BFGS stage is in train.py");
    await staff.keyboard.press("Enter");
    await expect(review.leafPanel).toHaveAttribute("data-key", error);
    await expect(review.row(lbfgs).getByTestId("badge-overridden")).toBeVisible();
    await review.expectSaved();

    // Off: the page stays on the leaf, and the choice is kept.
    await review.autoAdvance.uncheck();
    await staff.keyboard.press(String(VERDICT.error));
    await expect(review.row(error).getByTestId("row-reviewed")).toBeVisible();
    await expect(review.leafPanel).toHaveAttribute("data-key", error);
    await review.expectSaved();
    await staff.reload();
    await expect(review.leafPanel).toBeVisible();
    await expect(review.autoAdvance).not.toBeChecked();
  });

  test("blind: a score that differs from the revealed verdict overrides it at once, marked Blind review, and the page moves on", async ({
    asUser,
  }) => {
    const grader = await asUser(GRADER);
    const staff = await asUser(STAFF);
    const blind = (await graderQueue(grader)).find((a) => a.blind && a.nodeKeys === null)!;
    expect(blind).toBeTruthy();
    const all = await getReviewPayload(staff.request, blind.gradingId);
    const mine = await getReviewPayload(grader.request, blind.gradingId);
    // A leaf this grader has not scored yet, with a valid verdict.
    const target = all.leaves.find(
      (l) => l.verdict?.valid && l.override === null && mine.leaves.find((m) => m.key === l.key)?.hidden === "blind",
    )!;
    const differing = 1 - target.verdict!.score;

    await grader.goto(`/gradings/${blind.gradingId}?leaf=${target.key}`);
    const review = new ReviewPage(grader, blind.gradingId);
    await expect(review.leafPanel).toHaveAttribute("data-key", target.key);
    // The tree opens along the path to the linked leaf, its row shown as selected.
    await expect(grader.locator(`[data-testid="review-row"][data-key="${target.key}"]`)).toHaveAttribute(
      "data-selected",
      "true",
    );
    await expect(review.verdictHidden).toBeVisible();
    await grader.keyboard.press(String(differing));

    // No reason is asked of a score made without the verdict: it overrides, and auto-advance moves on.
    await expect(review.leafPanel).not.toHaveAttribute("data-key", target.key);
    await review.expectSaved();
    // The next leaf is blind too (no reason box there); no text field took the focus either way.
    await expect(grader.locator("textarea:focus, input:focus")).toHaveCount(0);
    const leaf = (await getReviewPayload(grader.request, blind.gradingId)).leaves.find((l) => l.key === target.key)!;
    expect(leaf).toMatchObject({ mine: differing, override: differing, hidden: null });
    const detail = (await (
      await grader.request.get(`/api/gradings/${blind.gradingId}/leaves/${target.key}`)
    ).json()) as ReviewLeafDetail;
    expect(detail.overrides.at(-1)).toMatchObject({
      newScore: differing,
      reason: expect.stringMatching(/^Blind review/),
    });
  });

  test("a subtree grader's tree is their subtree, not the whole rubric with dashes", async ({ asUser }) => {
    const grader = await asUser(GRADER);
    const subtree = (await graderQueue(grader)).find((a) => a.nodeKeys !== null)!;
    expect(subtree).toBeTruthy();
    const payload = await getReviewPayload(grader.request, subtree.gradingId);
    const inside = payload.leaves.filter((l) => l.hidden !== "scope");
    expect(payload.leaves.length).toBeGreaterThan(inside.length);

    const review = new ReviewPage(grader, subtree.gradingId);
    await review.open();
    // The first row is the assigned subtree's root; no row is a leaf outside the assignment.
    await expect(review.rows.first()).toHaveAttribute("data-key", subtree.nodeKeys![0]);
    await expect(review.root.getByTestId("badge-hidden")).toHaveCount(0);
    await expect(grader.locator('[data-testid="review-row"][data-leaf]')).toHaveCount(inside.length);
    await expect(review.root).toContainText(`${inside.length} leaves in your part`);
    // The subtree's own score shows (nothing under it is hidden from this grader).
    await expect(review.rows.first().getByTestId("row-score")).not.toHaveAttribute("data-score", "");
    await expect(review.progressCount).toHaveText(new RegExp(`/ ${inside.length}$`));
    // j walks only the subtree's leaves.
    const keys = new Set(inside.map((l) => l.key));
    for (let i = 0; i < inside.length + 1; i++) {
      expect(keys.has(await review.selectedKey())).toBe(true);
      const at = await review.selectedKey();
      await grader.keyboard.press("j");
      if (inside.length > 1) await expect(review.leafPanel).not.toHaveAttribute("data-key", at);
    }
  });
});
