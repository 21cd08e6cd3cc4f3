import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { evaluations, gradingReviewSamples, type GradingReviewSample } from "../schema";

/** Review sampling: an evaluation's sample settings, the samples drawn, and the leaves compared. */

export async function setEvaluationReviewSampling(
  db: Executor,
  evaluationId: string,
  values: { sampleSize: number | null; graderIds: string[] },
): Promise<void> {
  await db
    .update(evaluations)
    .set({ reviewSampleSize: values.sampleSize, reviewGraderIds: values.graderIds })
    .where(eq(evaluations.id, evaluationId));
}

/** Records a grading's sample; a grading is sampled once (false when it already was). */
export async function insertReviewSample(
  db: Executor,
  values: { gradingId: string; evaluationId: string; userId: string | null; nodeKeys: string[] },
): Promise<boolean> {
  const rows = await db
    .insert(gradingReviewSamples)
    .values(values)
    .onConflictDoNothing()
    .returning({ gradingId: gradingReviewSamples.gradingId });
  return rows.length > 0;
}

export async function hasReviewSample(db: Executor, gradingId: string): Promise<boolean> {
  const rows = await db
    .select({ gradingId: gradingReviewSamples.gradingId })
    .from(gradingReviewSamples)
    .where(eq(gradingReviewSamples.gradingId, gradingId))
    .limit(1);
  return rows.length > 0;
}

export async function listReviewSamples(db: Executor, evaluationId: string): Promise<GradingReviewSample[]> {
  return db
    .select()
    .from(gradingReviewSamples)
    .where(eq(gradingReviewSamples.evaluationId, evaluationId))
    .orderBy(gradingReviewSamples.createdAt, gradingReviewSamples.gradingId);
}

/** How many samples the evaluation holds (the next grader in turn is this count modulo the graders). */
export async function countReviewSamples(db: Executor, evaluationId: string): Promise<number> {
  const result = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM grading_review_samples WHERE evaluation_id = ${evaluationId}`,
  );
  return result.rows[0].n;
}

/**
 * Each sampled leaf a human has scored, with the judge's verdict on it: the human score is the
 * sampled grader's first mark (made blind, before the verdict was shown), else anyone's first;
 * leaves whose verdict is invalid are left out (JudgeEval has no prediction for them).
 */
export async function listSampledLeafPairs(
  db: Executor,
  evaluationIds: readonly string[],
): Promise<{ evaluationId: string; gradingId: string; nodeKey: string; human: number; judge: number }[]> {
  if (evaluationIds.length === 0) return [];
  // float8 scores, uuids: the same on both drivers.
  const result = await db.execute<{
    evaluation_id: string;
    grading_id: string;
    node_key: string;
    judge: number;
    human: number;
  }>(sql`
    SELECT s.evaluation_id, s.grading_id, v.node_key, v.score AS judge, r.score AS human
    FROM grading_review_samples s
    CROSS JOIN LATERAL jsonb_array_elements_text(s.node_keys) AS k(node_key)
    JOIN grading_verdicts v ON v.grading_id = s.grading_id AND v.node_key = k.node_key::uuid AND v.valid
    JOIN LATERAL (
      SELECT score FROM grading_reviews r
      WHERE r.grading_id = s.grading_id AND r.node_key = v.node_key
      ORDER BY (r.user_id IS NOT DISTINCT FROM s.user_id) DESC, r.seq ASC
      LIMIT 1
    ) r ON true
    WHERE s.evaluation_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(evaluationIds)}::jsonb)::uuid)
    ORDER BY s.evaluation_id, s.grading_id, v.node_key
  `);
  return result.rows.map((r) => ({
    evaluationId: r.evaluation_id,
    gradingId: r.grading_id,
    nodeKey: r.node_key,
    human: r.human,
    judge: r.judge,
  }));
}
