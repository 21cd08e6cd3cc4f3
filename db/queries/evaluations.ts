import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { agents, evaluations, submissions, type Evaluation } from "../schema";
import type { InferInsertModel } from "drizzle-orm";
import type { FailureKind, ImportedRunResult } from "@/lib/evaluations/schemas";
import type { PipelineStage } from "@/lib/evaluations/pipeline";
import type { SubmissionFlags } from "@/lib/submissions/blacklist-monitor";
import type { GradingProvenance } from "@/lib/evaluations/provenance";

export async function insertEvaluation(
  db: Executor,
  values: InferInsertModel<typeof evaluations>,
): Promise<Evaluation> {
  const [row] = await db.insert(evaluations).values(values).returning();
  return row;
}

export async function getEvaluationById(
  db: Executor,
  id: string,
): Promise<(Evaluation & { agentName: string }) | null> {
  const [row] = await db
    .select({ evaluation: evaluations, agentName: agents.name })
    .from(evaluations)
    .innerJoin(agents, eq(agents.id, evaluations.agentId))
    .where(eq(evaluations.id, id))
    .limit(1);
  return row ? { ...row.evaluation, agentName: row.agentName } : null;
}

export async function listEvaluations(
  db: Executor,
): Promise<(Evaluation & { agentName: string; submissions: number })[]> {
  const rows = await db
    .select({
      evaluation: evaluations,
      agentName: agents.name,
      submissions: sql<number>`(SELECT count(*) FROM submissions s WHERE s.evaluation_id = ${evaluations.id})::int`,
    })
    .from(evaluations)
    .innerJoin(agents, eq(agents.id, evaluations.agentId))
    .orderBy(desc(evaluations.createdAt), desc(evaluations.id));
  return rows.map((r) => ({ ...r.evaluation, agentName: r.agentName, submissions: Number(r.submissions) }));
}

export async function setSubmissionEvaluation(
  db: Executor,
  submissionId: string,
  values: { evaluationId: string; importedResult: ImportedRunResult | null; executedArchiveSha256: string | null },
): Promise<void> {
  await db.update(submissions).set(values).where(eq(submissions.id, submissionId));
}

export async function setSubmissionEvaluationId(
  db: Executor,
  submissionId: string,
  evaluationId: string,
): Promise<void> {
  await db.update(submissions).set({ evaluationId }).where(eq(submissions.id, submissionId));
}

/** One submission of an evaluation with the grading that counts (as the leaderboard picks it). */
export interface EvaluationCellRow {
  submissionId: string;
  paperId: string;
  runIndex: number;
  importedResult: ImportedRunResult | null;
  latestJobStatus: string | null;
  gradingId: string | null;
  score: number | null;
  invalidLeaves: number;
  leaves: number;
  /** The grading is a placeholder judge's (Dummy, Random): members only. */
  placeholder: boolean;
  /** How the grading was made (migration 0021). */
  provenance: GradingProvenance | null;
  /** What the monitors found in the agent's log (`submissions.flags`). */
  flags: SubmissionFlags | null;
  /** The evaluation's resources-provided setting (every cell's score is read under it). */
  resourcesProvided: boolean;
  /** Where the pipeline has it (`evaluation_cells`); null outside it (an ingested result). */
  pipeline: {
    stage: PipelineStage;
    attempts: number;
    failureKind: FailureKind | null;
    failureReason: string | null;
  } | null;
}

export async function listEvaluationCellRows(db: Executor, evaluationId: string): Promise<EvaluationCellRow[]> {
  const result = await db.execute(sql`
    SELECT s.id AS submission_id, s.paper_id, s.run_index, s.imported_result, s.flags, e.resources_provided,
      ec.stage, ec.attempts, ec.failure_kind, ec.failure_reason,
      (SELECT j.status FROM jobs j WHERE j.submission_id = s.id AND j.kind = 'reproduce'
        ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS job_status,
      g.id AS grading_id, g.score, g.judge_placeholder, g.provenance,
      (SELECT count(*) FROM grading_verdicts v WHERE v.grading_id = g.id AND NOT v.valid)::int AS invalid_leaves,
      (SELECT count(*) FROM grading_verdicts v WHERE v.grading_id = g.id)::int AS leaves
    FROM submissions s
    JOIN evaluations e ON e.id = s.evaluation_id
    LEFT JOIN evaluation_cells ec ON ec.submission_id = s.id
    LEFT JOIN LATERAL (
      SELECT id, score, judge_placeholder, provenance FROM gradings WHERE submission_id = s.id AND NOT is_lab
      ORDER BY (kind = 'judge') DESC, created_at DESC, id DESC LIMIT 1
    ) g ON true
    WHERE s.evaluation_id = ${evaluationId}
    ORDER BY s.paper_id, s.run_index
  `);
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    submissionId: String(r.submission_id),
    paperId: String(r.paper_id),
    runIndex: Number(r.run_index),
    importedResult: (r.imported_result as ImportedRunResult | null) ?? null,
    latestJobStatus: (r.job_status as string | null) ?? null,
    gradingId: r.grading_id === null ? null : String(r.grading_id),
    score: r.score === null ? null : Number(r.score),
    placeholder: r.judge_placeholder === true,
    provenance: (r.provenance as GradingProvenance | null) ?? null,
    invalidLeaves: Number(r.invalid_leaves ?? 0),
    leaves: Number(r.leaves ?? 0),
    flags: (r.flags as SubmissionFlags | null) ?? null,
    resourcesProvided: r.resources_provided === true,
    pipeline: r.stage
      ? {
          stage: r.stage as PipelineStage,
          attempts: Number(r.attempts),
          failureKind: (r.failure_kind as FailureKind | null) ?? null,
          failureReason: (r.failure_reason as string | null) ?? null,
        }
      : null,
  }));
}
