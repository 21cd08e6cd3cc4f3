import "server-only";
import type { Executor } from "@/db/client";
import { lockGradingById, setGradingScore } from "@/db/queries/gradings";
import { getLatestOverrideScore, getVerdictState, insertOverride } from "@/db/queries/grading-verdicts";
import type { Grading, GradingOverride } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { effectiveLeafScore } from "@/lib/grading/effective-score";
import { badField } from "@/server/http/zod-details";
import { getPinnedGradingScores } from "./pinned-grading";

export interface OverrideLeafScoreInput {
  gradingId: string;
  nodeKey: string;
  userId: string | null;
  score: number;
  reason: string;
}

/**
 * Appends a human override of one leaf's score (never changes one) and brings the grading's
 * effective root score up to date, in the caller's transaction. `oldScore` is the leaf's effective
 * score before. The review service commits scores through it; the demo seed too.
 */
export async function overrideLeafScoreInTransaction(
  tx: Executor,
  input: OverrideLeafScoreInput,
): Promise<{ override: GradingOverride; score: number }> {
  if (!(typeof input.score === "number" && input.score >= 0 && input.score <= 1)) {
    throw badField("score", "must be a number between 0 and 1");
  }
  // Row lock: overrides of one grading take turns, so each sees the one before as its old score.
  const grading = await lockGradingById(tx, input.gradingId);
  if (!grading) throw new AppError("not_found", "No such grading");
  const verdict = await getVerdictState(tx, grading.id, input.nodeKey);
  if (!verdict) throw badField("nodeKey", "is not a graded leaf of this grading");
  const oldScore = effectiveLeafScore(await getLatestOverrideScore(tx, grading.id, input.nodeKey), verdict);
  return appendOverride(tx, grading, { ...input, oldScore });
}

/**
 * The override itself, for a caller that already holds the grading's row lock and knows the
 * leaf's effective score (`oldScore`): appends it and stores the recomputed root score.
 */
export async function appendOverride(
  tx: Executor,
  grading: Grading,
  input: OverrideLeafScoreInput & { oldScore: number },
): Promise<{ override: GradingOverride; score: number }> {
  const override = await insertOverride(tx, {
    gradingId: grading.id,
    nodeKey: input.nodeKey,
    userId: input.userId,
    oldScore: input.oldScore,
    newScore: input.score,
    reason: input.reason,
  });
  const scores = await getPinnedGradingScores(tx, grading);
  await setGradingScore(tx, grading.id, scores.rootScore);
  return { override, score: scores.rootScore };
}

/** `overrideLeafScoreInTransaction` in a transaction of its own. */
export async function overrideLeafScore(
  store: { db: Executor },
  input: OverrideLeafScoreInput,
): Promise<{ override: GradingOverride; score: number }> {
  return store.db.transaction((tx) => overrideLeafScoreInTransaction(tx, input));
}
