import "server-only";
import type { Store } from "@/db/client";
import type { CellFailure } from "@/lib/evaluations/pipeline";
import { sampleSubmissionForReview } from "../review-sampling";

/**
 * The after-grading step of a pipeline cell, run once its grading is complete (its judge run
 * succeeded; `failure` set when the judge left invalid leaves that the policy counts or excludes)
 * and before the cell is done. Human-review sampling hooks in here: draw the grading's sample and
 * assign it. It must be idempotent: after a crash between it and `done`, the sweep runs it again.
 */
export async function onCellGraded(
  store: Store,
  cell: { submissionId: string; evaluationId: string; failure: CellFailure | null },
): Promise<void> {
  // Draws and assigns the sample when the evaluation has a size and graders; a grading is sampled once.
  await sampleSubmissionForReview(store, { evaluationId: cell.evaluationId, submissionId: cell.submissionId });
}
