import "server-only";
import type { Store } from "@/db/client";
import { listEvaluationCellRows } from "@/db/queries/evaluation-cells";
import { getEvaluationById } from "@/db/queries/evaluations";
import { getGradingAssignment } from "@/db/queries/grading-reviews";
import { getGradingById } from "@/db/queries/gradings";
import { getPaperRole } from "@/db/queries/papers";
import {
  countReviewSamples,
  hasReviewSample,
  insertReviewSample,
  setEvaluationReviewSampling,
} from "@/db/queries/review-samples";
import { getUserByEmail, getUserById } from "@/db/queries/users";
import type { Evaluation, User } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { sampleLeaves, sampleableLeaves } from "@/lib/evaluations/review-sampling";
import { reviewSamplingSchema, type ReviewSamplingInput } from "@/lib/evaluations/schemas";
import { isUuid } from "@/lib/uuid";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { badRequestOf } from "@/server/http/zod-details";
import { assignGrading } from "@/server/reviews/assignments";

/**
 * Human review sampling of an evaluation: per grading, `reviewSampleSize` leaves drawn by
 * `sampleLeaves` (seeded by the grading's id, stratified by task category, weighted by effective
 * share) go to the evaluation's graders in turn as a blind assignment of those leaves (the
 * grader scores each before seeing the judge's verdict, so agreement is not anchored on it).
 * A grading is sampled once (`grading_review_samples`); judge–human agreement is read from the
 * review marks on its sampled leaves (`review-agreement.ts`).
 */

async function requireEvaluation(store: Store, evaluationId: string): Promise<Evaluation> {
  const evaluation = isUuid(evaluationId) ? await getEvaluationById(store.db, evaluationId) : null;
  if (!evaluation) throw new AppError("not_found", `No evaluation with id "${evaluationId}"`);
  return evaluation;
}

/** Sets an evaluation's sample size and graders (staff). A grader who is not a user is a 400 naming them. */
export async function setReviewSampling(
  store: Store,
  evaluationId: string,
  input: ReviewSamplingInput,
): Promise<{ sampleSize: number | null; graders: string[] }> {
  const parsed = reviewSamplingSchema.safeParse(input);
  if (!parsed.success) throw badRequestOf(parsed.error);
  await requireEvaluation(store, evaluationId);
  const graders: User[] = [];
  for (const [i, email] of parsed.data.graders.entries()) {
    const user = await getUserByEmail(store.db, email);
    if (!user || user.disabledAt)
      throw new AppError("bad_request", `graders[${i}]: no user ${email}`, [
        { path: `graders.${i}`, message: "is not a user of the studio" },
      ]);
    if (!graders.some((g) => g.id === user.id)) graders.push(user);
  }
  await setEvaluationReviewSampling(store.db, evaluationId, {
    sampleSize: parsed.data.sampleSize,
    graderIds: graders.map((g) => g.id),
  });
  return { sampleSize: parsed.data.sampleSize, graders: graders.map((g) => g.email) };
}

export interface SampledGrading {
  gradingId: string;
  paperId: string;
  grader: string;
  leaves: number;
  /** The sampled leaves' node keys (of the grading's pinned rubric). */
  nodeKeys: string[];
}

/**
 * Samples one grading of an evaluation and assigns the sample to the next grader in turn who may
 * review its paper (a grader of it, or staff). Null when the evaluation samples nothing (no size or
 * no graders), the grading was sampled already, or no grader may review the paper.
 */
export async function sampleGradingForReview(
  store: Store,
  input: { evaluationId: string; gradingId: string; assignedBy: string | null },
): Promise<SampledGrading | null> {
  const evaluation = await requireEvaluation(store, input.evaluationId);
  const cell = (await listEvaluationCellRows(store.db, evaluation.id)).find((c) => c.gradingId === input.gradingId);
  if (!cell)
    throw new AppError("bad_request", "gradingId: the grading does not count in this evaluation", [
      { path: "gradingId", message: "is not a cell's grading" },
    ]);
  return sampleCell(store, evaluation, { gradingId: input.gradingId, paperId: cell.paperId }, input.assignedBy);
}

/**
 * The pipeline's hook (`pipeline/on-cell-graded.ts`): samples a graded cell's grading when the
 * evaluation has a sample size and graders. Idempotent: a grading is sampled once.
 */
export async function sampleSubmissionForReview(
  store: Store,
  input: { evaluationId: string; submissionId: string },
): Promise<SampledGrading | null> {
  const evaluation = await requireEvaluation(store, input.evaluationId);
  if (evaluation.reviewSampleSize === null || evaluation.reviewGraderIds.length === 0) return null;
  const cell = (await listEvaluationCellRows(store.db, evaluation.id)).find(
    (c) => c.submissionId === input.submissionId,
  );
  if (!cell || cell.gradingId === null) return null;
  return sampleCell(store, evaluation, { gradingId: cell.gradingId, paperId: cell.paperId }, null);
}

async function sampleCell(
  store: Store,
  evaluation: Evaluation,
  cell: { gradingId: string; paperId: string },
  assignedBy: string | null,
): Promise<SampledGrading | null> {
  if (evaluation.reviewSampleSize === null || evaluation.reviewGraderIds.length === 0) return null;
  if (await hasReviewSample(store.db, cell.gradingId)) return null;
  const grading = await getGradingById(store.db, cell.gradingId);
  if (!grading) return null;
  const rows = await getGradingRows(store.db, grading);
  const keys = sampleLeaves(sampleableLeaves(rows), evaluation.reviewSampleSize, grading.id);
  if (keys.length === 0) return null;

  // Round-robin: the next grader after the samples made so far, skipping those who may not review this paper.
  const turn = await countReviewSamples(store.db, evaluation.id);
  const ids = evaluation.reviewGraderIds;
  let grader: User | null = null;
  for (let k = 0; k < ids.length && !grader; k++) {
    const user = await getUserById(store.db, ids[(turn + k) % ids.length]);
    if (
      user &&
      !user.disabledAt &&
      (user.isStaff || (await getPaperRole(store.db, cell.paperId, user.id)) === "grader")
    )
      grader = user;
  }
  if (!grader) return null;
  // Assigned first, recorded after: a crash in between leaves no sample, and running again (the
  // pipeline's sweep) picks the same grader and leaves and makes the same assignment.
  const existing = await getGradingAssignment(store.db, grading.id, grader.id);
  // A grader who holds the whole grading already keeps it; one who holds subtrees gets the sample besides.
  const nodeKeys =
    existing && existing.nodeKeys === null ? null : [...new Set([...(existing?.nodeKeys ?? []), ...keys])];
  await assignGrading(store, {
    grading: {
      id: grading.id,
      paperId: cell.paperId,
      rubricVersionId: grading.rubricVersionId,
      rubricView: grading.rubricView,
    },
    email: grader.email,
    nodeKeys,
    blind: existing ? existing.blind : true,
    assignedBy: assignedBy ?? evaluation.createdBy ?? grader.id,
  });
  if (
    !(await insertReviewSample(store.db, {
      gradingId: grading.id,
      evaluationId: evaluation.id,
      userId: grader.id,
      nodeKeys: keys,
    }))
  )
    return null;
  return { gradingId: grading.id, paperId: cell.paperId, grader: grader.email, leaves: keys.length, nodeKeys: keys };
}

/** "Sample for review" (staff): samples every graded cell of the evaluation not sampled yet. */
export async function sampleEvaluationForReview(
  store: Store,
  evaluationId: string,
  assignedBy: string,
): Promise<{ sampled: SampledGrading[] }> {
  const evaluation = await requireEvaluation(store, evaluationId);
  if (evaluation.reviewSampleSize === null) {
    throw new AppError("bad_request", "sampleSize: set the evaluation's review sample size first", [
      { path: "sampleSize", message: "is not set" },
    ]);
  }
  if (evaluation.reviewGraderIds.length === 0) {
    throw new AppError("bad_request", "graders: choose the graders who review the samples first", [
      { path: "graders", message: "none chosen" },
    ]);
  }
  const sampled: SampledGrading[] = [];
  for (const cell of await listEvaluationCellRows(store.db, evaluationId)) {
    if (cell.gradingId === null) continue;
    const done = await sampleCell(store, evaluation, { gradingId: cell.gradingId, paperId: cell.paperId }, assignedBy);
    if (done) sampled.push(done);
  }
  return { sampled };
}
