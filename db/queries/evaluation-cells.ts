import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { evaluationCells, judgeConfigs, type EvaluationCellRecord } from "../schema";
import type { FailureKind } from "@/lib/evaluations/schemas";
import type { PipelineStage } from "@/lib/evaluations/pipeline";
import type { ImportedRunResult } from "@/lib/evaluations/schemas";
import type { SubmissionFlags } from "@/lib/submissions/blacklist-monitor";
import type { GradingProvenance } from "@/lib/evaluations/provenance";
import type { ReproductionEnd } from "@/lib/jobs/judge-source";
import type { JobStatus } from "@/lib/jobs/states";

/** The pipeline's cells (`evaluation_cells`): one per submission of an evaluation the studio grades. */

/** Puts a submission into the pipeline at `uploaded`; a second call changes nothing. */
export async function insertEvaluationCell(
  db: Executor,
  values: { submissionId: string; evaluationId: string },
): Promise<void> {
  await db.insert(evaluationCells).values(values).onConflictDoNothing();
}

export async function getEvaluationCell(db: Executor, submissionId: string): Promise<EvaluationCellRecord | null> {
  const [row] = await db.select().from(evaluationCells).where(eq(evaluationCells.submissionId, submissionId)).limit(1);
  return row ?? null;
}

/** The cell, locked for update: one advance at a time per cell, on every instance. */
export async function lockEvaluationCell(tx: Executor, submissionId: string): Promise<EvaluationCellRecord | null> {
  const [row] = await tx
    .select()
    .from(evaluationCells)
    .where(eq(evaluationCells.submissionId, submissionId))
    .for("update");
  return row ?? null;
}

export async function updateEvaluationCell(
  tx: Executor,
  submissionId: string,
  values: Partial<
    Pick<
      EvaluationCellRecord,
      "stage" | "attempts" | "jobId" | "judgeRunId" | "failureKind" | "failureReason" | "startedAt" | "finishedAt"
    >
  >,
): Promise<void> {
  await tx
    .update(evaluationCells)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(evaluationCells.submissionId, submissionId));
}

/** The cell a job belongs to (its reproduce job, or the job of its judge run), with the evaluation. */
export async function findEvaluationCellOfJob(
  db: Executor,
  jobId: string,
): Promise<{ submissionId: string; evaluationId: string } | null> {
  const result = await db.execute(sql`
    SELECT ec.submission_id, ec.evaluation_id FROM evaluation_cells ec
    WHERE ec.job_id = ${jobId}
      OR ec.judge_run_id IN (SELECT id FROM judge_runs WHERE job_id = ${jobId})
    LIMIT 1
  `);
  const r = (result.rows as Record<string, unknown>[])[0];
  return r ? { submissionId: String(r.submission_id), evaluationId: String(r.evaluation_id) } : null;
}

/**
 * Open cells whose next step is due and has not been taken for `graceS` seconds (an event missed:
 * a restart, a crash between commit and announce): not started, a job or judge run that ended,
 * none named yet, or graded without its after-grading step.
 */
export async function listDueEvaluationCells(db: Executor, graceS: number, limit: number): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT ec.submission_id FROM evaluation_cells ec
    LEFT JOIN jobs j ON j.id = ec.job_id
    LEFT JOIN judge_runs r ON r.id = ec.judge_run_id
    LEFT JOIN jobs rj ON rj.id = r.job_id
    WHERE ec.updated_at < now() - make_interval(secs => ${graceS})
      AND (ec.stage IN ('uploaded', 'graded')
        OR (ec.stage = 'reproducing' AND (j.id IS NULL OR j.status NOT IN ('queued', 'running')))
        OR (ec.stage = 'judging' AND (rj.id IS NULL OR rj.status NOT IN ('queued', 'running'))))
    ORDER BY ec.updated_at
    LIMIT ${limit}
  `);
  return (result.rows as Record<string, unknown>[]).map((r) => String(r.submission_id));
}

/** The cells to retry: those the pipeline ended failed, or done with a failure (invalid leaves). */
export async function listFailedEvaluationCells(
  db: Executor,
  evaluationId: string,
): Promise<{ submissionId: string; paperId: string; run: number }[]> {
  const result = await db.execute(sql`
    SELECT ec.submission_id, s.paper_id, s.run_index FROM evaluation_cells ec
    JOIN submissions s ON s.id = ec.submission_id
    WHERE ec.evaluation_id = ${evaluationId} AND (ec.stage = 'failed' OR (ec.stage = 'done' AND ec.failure_kind IS NOT NULL))
    ORDER BY s.paper_id, s.run_index
  `);
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    submissionId: String(r.submission_id),
    paperId: String(r.paper_id),
    run: Number(r.run_index),
  }));
}

/** The configuration marked default, if any (not archived). */
export async function getDefaultJudgeConfigId(db: Executor): Promise<string | null> {
  const [row] = await db
    .select({ id: judgeConfigs.id })
    .from(judgeConfigs)
    .where(and(eq(judgeConfigs.isDefault, true), sql`${judgeConfigs.archivedAt} IS NULL`))
    .limit(1);
  return row?.id ?? null;
}

/** One submission of an evaluation, as the matrix shows it: the pipeline's cell (if any) and the grading that counts. */
export interface MatrixCellRow {
  submissionId: string;
  paperId: string;
  runIndex: number;
  importedResult: ImportedRunResult | null;
  flags: SubmissionFlags | null;
  /** Null for a submission outside the pipeline (an ingested result). */
  stage: PipelineStage | null;
  attempts: number | null;
  failureKind: FailureKind | null;
  failureReason: string | null;
  jobId: string | null;
  judgeRunId: string | null;
  /** The latest reproduce job's status (ingested cells read it as `cellStateOf` does). */
  latestJobStatus: string | null;
  gradingId: string | null;
  score: number | null;
  invalidLeaves: number;
  /** Leaves of the grading were sampled for human review and some have no review mark yet. */
  inReview: boolean;
  /** How the grading was made (migration 0021), and whether a placeholder judge made it. */
  provenance: GradingProvenance | null;
  placeholder: boolean;
  /** How the cell's current reproduce job ended (exit code, time, timeout), when it has one. */
  reproduction: ReproductionEnd | null;
}

export async function listMatrixCellRows(db: Executor, evaluationId: string): Promise<MatrixCellRow[]> {
  const result = await db.execute(sql`
    SELECT s.id AS submission_id, s.paper_id, s.run_index, s.imported_result, s.flags,
      ec.stage, ec.attempts, ec.failure_kind, ec.failure_reason, ec.job_id, ec.judge_run_id,
      cj.status AS cell_job_status, cj.exit_code AS cell_job_exit_code, cj.timeout_s AS cell_job_timeout_s, cj.failure_reason AS cell_job_reason,
      COALESCE((cj.result->'metadata'->>'repro_execution_time')::float8, (cj.result->>'durationS')::float8,
        EXTRACT(EPOCH FROM (cj.finished_at - cj.started_at))::float8) AS cell_job_duration_s,
      (SELECT j.status FROM jobs j WHERE j.submission_id = s.id AND j.kind = 'reproduce'
        ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS job_status,
      g.id AS grading_id, g.score, g.provenance, g.judge_placeholder,
      (SELECT count(*) FROM grading_verdicts v WHERE v.grading_id = g.id AND NOT v.valid)::int AS invalid_leaves,
      EXISTS (SELECT 1 FROM grading_review_samples rs, jsonb_array_elements_text(rs.node_keys) AS k(node_key)
              WHERE rs.grading_id = g.id
                AND NOT EXISTS (SELECT 1 FROM grading_reviews r WHERE r.grading_id = g.id AND r.node_key::text = k.node_key)) AS in_review
    FROM submissions s
    LEFT JOIN evaluation_cells ec ON ec.submission_id = s.id
    LEFT JOIN jobs cj ON cj.id = ec.job_id
    LEFT JOIN LATERAL (
      SELECT id, score, provenance, judge_placeholder FROM gradings WHERE submission_id = s.id AND NOT is_lab
      ORDER BY (kind = 'judge') DESC, created_at DESC, id DESC LIMIT 1
    ) g ON true
    WHERE s.evaluation_id = ${evaluationId}
    ORDER BY s.paper_id, s.run_index, s.created_at
  `);
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    submissionId: String(r.submission_id),
    paperId: String(r.paper_id),
    runIndex: Number(r.run_index),
    importedResult: (r.imported_result as ImportedRunResult | null) ?? null,
    flags: (r.flags as SubmissionFlags | null) ?? null,
    stage: (r.stage as PipelineStage | null) ?? null,
    attempts: r.attempts === null || r.attempts === undefined ? null : Number(r.attempts),
    failureKind: (r.failure_kind as FailureKind | null) ?? null,
    failureReason: (r.failure_reason as string | null) ?? null,
    jobId: r.job_id ? String(r.job_id) : null,
    judgeRunId: r.judge_run_id ? String(r.judge_run_id) : null,
    latestJobStatus: (r.job_status as string | null) ?? null,
    gradingId: r.grading_id ? String(r.grading_id) : null,
    score: r.score === null || r.score === undefined ? null : Number(r.score),
    invalidLeaves: Number(r.invalid_leaves ?? 0),
    inReview: r.in_review === true,
    provenance: (r.provenance as GradingProvenance | null) ?? null,
    placeholder: r.judge_placeholder === true,
    reproduction: r.cell_job_status
      ? {
          status: r.cell_job_status as JobStatus,
          exitCode: r.cell_job_exit_code === null ? null : Number(r.cell_job_exit_code),
          durationS:
            r.cell_job_duration_s === null || r.cell_job_duration_s === undefined
              ? null
              : Number(r.cell_job_duration_s),
          timeoutS: r.cell_job_timeout_s === null ? null : Number(r.cell_job_timeout_s),
          reason: (r.cell_job_reason as string | null) ?? null,
        }
      : null,
  }));
}

/** What the evaluation has cost so far, and how long its finished cells took. */
export interface EvaluationProgressRow {
  /** Σ over every reproduce attempt of (end, or now, − start) × GPUs claimed, in GPU-seconds. */
  gpuSeconds: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Start of the first attempt to the end, of each finished pipeline cell. */
  finishedDurationsS: number[];
  /** Cells whose job or judge run is queued or running now. */
  inFlight: number;
}

export async function readEvaluationProgressRow(db: Executor, evaluationId: string): Promise<EvaluationProgressRow> {
  const [gpu, tokens, durations, flight] = await Promise.all([
    db.execute(sql`
      SELECT coalesce(sum(extract(epoch FROM (coalesce(a.finished_at, now()) - a.started_at)) * cardinality(a.gpu_indices)), 0)::float8 AS gpu_seconds
      FROM job_attempts a JOIN jobs j ON j.id = a.job_id JOIN submissions s ON s.id = j.submission_id
      WHERE s.evaluation_id = ${evaluationId} AND j.kind = 'reproduce'
    `),
    db.execute(sql`
      SELECT coalesce(sum(r.input_tokens), 0)::float8 AS input, coalesce(sum(r.cached_input_tokens), 0)::float8 AS cached,
        coalesce(sum(r.output_tokens), 0)::float8 AS output, coalesce(sum(r.cost_usd), 0)::float8 AS cost
      FROM judge_runs r JOIN submissions s ON s.id = r.submission_id JOIN gradings g ON g.id = r.grading_id
      WHERE s.evaluation_id = ${evaluationId} AND NOT g.is_lab
    `),
    db.execute(sql`
      SELECT extract(epoch FROM (finished_at - started_at))::float8 AS duration_s FROM evaluation_cells
      WHERE evaluation_id = ${evaluationId} AND finished_at IS NOT NULL
    `),
    db.execute(sql`
      SELECT count(*)::int AS n FROM evaluation_cells WHERE evaluation_id = ${evaluationId} AND stage IN ('reproducing', 'judging')
    `),
  ]);
  const g = (gpu.rows as Record<string, unknown>[])[0] ?? {};
  const t = (tokens.rows as Record<string, unknown>[])[0] ?? {};
  return {
    gpuSeconds: Number(g.gpu_seconds ?? 0),
    inputTokens: Number(t.input ?? 0),
    cachedInputTokens: Number(t.cached ?? 0),
    outputTokens: Number(t.output ?? 0),
    costUsd: Number(t.cost ?? 0),
    finishedDurationsS: (durations.rows as Record<string, unknown>[]).map((r) => Number(r.duration_s)),
    inFlight: Number(((flight.rows as Record<string, unknown>[])[0] ?? {}).n ?? 0),
  };
}
