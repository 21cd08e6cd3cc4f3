import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { ReviewPayload } from "../../lib/review/types";

/** A grading as `GET /api/papers/<id>/gradings` lists it. */
export interface GradingRow {
  id: string;
  agentName: string;
  runIndex: number;
  kind: "judge" | "human";
  score: number | null;
  provenance: { origin: string };
}

export async function listPaperGradings(request: APIRequestContext, paperId: string): Promise<GradingRow[]> {
  const res = await request.get(`/api/papers/${paperId}/gradings`);
  expect(res.status(), "GET gradings").toBe(200);
  return ((await res.json()) as { gradings: GradingRow[] }).gradings;
}

/**
 * The seeded judge grading of one demo run (fails unless there is exactly one). The seed wrote it;
 * specs running beside this one (the judge lab) grade the same submission with judges of their own,
 * and those gradings are not it.
 */
export function judgeGrading(gradings: readonly GradingRow[], agentName: string, runIndex: number): GradingRow {
  const found = gradings.filter(
    (g) =>
      g.kind === "judge" && g.provenance.origin !== "judge_run" && g.agentName === agentName && g.runIndex === runIndex,
  );
  expect(found, `one judge grading of ${agentName} run ${runIndex}`).toHaveLength(1);
  return found[0];
}

export async function getReviewPayload(request: APIRequestContext, gradingId: string): Promise<ReviewPayload> {
  const res = await request.get(`/api/gradings/${gradingId}`);
  expect(res.status(), "GET review").toBe(200);
  return (await res.json()) as ReviewPayload;
}

/** /gradings/<id>: the review page (graded tree, selected leaf, submission). */
export class ReviewPage {
  constructor(
    readonly page: Page,
    readonly gradingId: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`/gradings/${this.gradingId}`);
  }

  /** Opens the page and waits until the tree shows and a leaf is selected. */
  async open(): Promise<void> {
    await this.goto();
    await expect(this.root).toBeVisible();
    await expect(this.rows.first()).toBeVisible();
    await expect(this.leafPanel).toBeVisible();
  }

  get root(): Locator {
    return this.page.getByTestId("review-page");
  }
  get rows(): Locator {
    return this.page.getByTestId("review-row");
  }
  row(key: string): Locator {
    return this.page.locator(`[data-testid="review-row"][data-key="${key}"]`);
  }
  get selectedRow(): Locator {
    return this.page.locator('[data-testid="review-row"][data-selected="true"]');
  }
  get leafPanel(): Locator {
    return this.page.getByTestId("leaf-panel");
  }
  /** The key of the node the leaf panel shows. */
  async selectedKey(): Promise<string> {
    return (await this.leafPanel.getAttribute("data-key")) ?? "";
  }
  get rootScore(): Locator {
    return this.page.getByTestId("root-score");
  }
  get rootJudgeScore(): Locator {
    return this.page.getByTestId("root-judge-score");
  }
  get judgeScore(): Locator {
    return this.leafPanel.getByTestId("leaf-judge-score");
  }
  get effectiveScore(): Locator {
    return this.leafPanel.getByTestId("leaf-effective-score");
  }
  get verdictHidden(): Locator {
    return this.leafPanel.getByTestId("verdict-hidden");
  }
  get explanation(): Locator {
    return this.leafPanel.getByTestId("leaf-explanation");
  }
  get reason(): Locator {
    return this.page.getByTestId("override-reason");
  }
  get history(): Locator {
    return this.leafPanel.getByTestId("leaf-history");
  }
  get progressCount(): Locator {
    return this.page.getByTestId("progress-count");
  }
  get saveState(): Locator {
    return this.page.getByTestId("review-save-state");
  }
  get shortcuts(): Locator {
    return this.page.getByTestId("review-shortcuts");
  }
  /** The setting "go to the next unreviewed leaf after a score". */
  get autoAdvance(): Locator {
    return this.leafPanel.getByTestId("auto-advance");
  }
  /** The effective score of the selected leaf as the panel shows it (`0`, `1`). */
  async effective(): Promise<number> {
    return Number(await this.effectiveScore.locator("[data-score]").getAttribute("data-score"));
  }

  async expectSaved(): Promise<void> {
    await expect(this.saveState).toHaveText("Saved");
  }

  // Graders (staff)
  get assignButton(): Locator {
    return this.page.getByTestId("assign-button");
  }
  get assignmentsDialog(): Locator {
    return this.page.getByTestId("assignments-dialog");
  }
  assignmentRow(email: string): Locator {
    return this.assignmentsDialog.locator(`[data-testid="assignment-row"][data-email="${email}"]`);
  }

  /** Staff: assigns the whole grading to `email`, blind or not, and waits for the list to show it. */
  async assign(email: string, { blind }: { blind: boolean }): Promise<void> {
    await this.assignButton.click();
    await expect(this.assignmentsDialog).toBeVisible();
    await this.assignmentsDialog.getByTestId("assign-email").fill(email);
    await this.assignmentsDialog.getByTestId("assign-scope-all").check();
    if (blind) await this.assignmentsDialog.getByTestId("assign-blind").check();
    const answered = this.page.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().endsWith(`/api/gradings/${this.gradingId}/assignments`),
    );
    await this.assignmentsDialog.getByTestId("assign-submit").click();
    expect((await answered).status()).toBe(201);
    await expect(this.assignmentRow(email)).toBeVisible();
    if (blind) await expect(this.assignmentRow(email).getByTestId("assignment-blind")).toBeVisible();
  }
}

/** /reviews: the signed-in user's queue. */
export class ReviewQueuePage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/reviews");
  }
  get items(): Locator {
    return this.page.getByTestId("review-queue").getByTestId("queue-item");
  }
  item(gradingId: string): Locator {
    return this.page.locator(`[data-testid="review-queue"] [data-testid="queue-item"][data-grading="${gradingId}"]`);
  }
}
