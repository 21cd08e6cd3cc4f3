import "server-only";
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { evaluationCells, judgeConfigs, judgeRuns, submissions, type EvaluationCellRecord } from "../schema";
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
  const [row] = await db
    .select({ submissionId: evaluationCells.submissionId, evaluationId: evaluationCells.evaluationId })
    .from(evaluationCells)
    .where(
      or(
        eq(evaluationCells.jobId, jobId),
        inArray(
          evaluationCells.judgeRunId,
          db.select({ id: judgeRuns.id }).from(judgeRuns).where(eq(judgeRuns.jobId, jobId)),
        ),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Open cells whose next step is due and has not been taken for `graceS` seconds (an event missed:
 * a restart, a crash between commit and announce): not started, a job or judge run that ended,
 * none named yet, or graded without its after-grading step.
 */
export async function listDueEvaluationCells(db: Executor, graceS: number, limit: number): Promise<string[]> {
  const result = await db.execute<{ submission_id: string }>(sql`
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
  return result.rows.map((r) => r.submission_id);
}

/** The cells to retry: those the pipeline ended failed, or done with a failure (invalid leaves). */
export async function listFailedEvaluationCells(
  db: Executor,
  evaluationId: string,
): Promise<{ submissionId: string; paperId: string; run: number }[]> {
  return db
    .select({ submissionId: evaluationCells.submissionId, paperId: submissions.paperId, run: submissions.runIndex })
    .from(evaluationCells)
    .innerJoin(submissions, eq(submissions.id, evaluationCells.submissionId))
    .where(
      and(
        eq(evaluationCells.evaluationId, evaluationId),
        or(
          eq(evaluationCells.stage, "failed"),
          and(eq(evaluationCells.stage, "done"), isNotNull(evaluationCells.failureKind)),
        ),
      ),
    )
    .orderBy(submissions.paperId, submissions.runIndex);
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

/**
 * One submission of an evaluation: the pipeline's cell (if any), the grading that counts (as the
 * leaderboard picks it: the latest non-lab judge grading, else the latest human one) and how the
 * cell's reproduce job ended. The matrix, the evaluation's summary, the leaderboard and review
 * sampling all read it.
 */
export interface EvaluationCellRow {
  submissionId: string;
  paperId: string;
  runIndex: number;
  importedResult: ImportedRunResult | null;
  /** What the monitors found in the agent's log (`submissions.flags`). */
  flags: SubmissionFlags | null;
  /** The evaluation's resources-provided setting (every cell's score is read under it). */
  resourcesProvided: boolean;
  /** The pipeline's stage (`evaluation_cells`); null, and so are the five after it, outside it (an ingested result). */
  stage: PipelineStage | null;
  attempts: number | null;
  failureKind: FailureKind | null;
  failureReason: string | null;
  jobId: string | null;
  judgeRunId: string | null;
  /** The latest reproduce job's status (ingested cells read it as `cellStateOf` does). */
  latestJobStatus: JobStatus | null;
  gradingId: string | null;
  score: number | null;
  invalidLeaves: number;
  leaves: number;
  /** Leaves of the grading were sampled for human review and some have no review mark yet. */
  inReview: boolean;
  /** How the grading was made (migration 0021), and whether a placeholder judge (Dummy, Random: members only) made it. */
  provenance: GradingProvenance | null;
  placeholder: boolean;
  /** How the cell's current reproduce job ended (exit code, time, timeout), when it has one. */
  reproduction: ReproductionEnd | null;
}

/** The row as the query returns it: every column is an int4, float8, text, uuid, bool or jsonb, the same on both drivers. */
interface EvaluationCellSqlRow extends Record<string, unknown> {
  submission_id: string;
  paper_id: string;
  run_index: number;
  imported_result: ImportedRunResult | null;
  flags: SubmissionFlags | null;
  resources_provided: boolean;
  stage: PipelineStage | null;
  attempts: number | null;
  failure_kind: FailureKind | null;
  failure_reason: string | null;
  job_id: string | null;
  judge_run_id: string | null;
  cell_job_status: JobStatus | null;
  cell_job_exit_code: number | null;
  cell_job_timeout_s: number | null;
  cell_job_reason: string | null;
  cell_job_duration_s: number | null;
  job_status: JobStatus | null;
  grading_id: string | null;
  score: number | null;
  provenance: GradingProvenance | null;
  judge_placeholder: boolean | null;
  invalid_leaves: number;
  leaves: number;
  in_review: boolean;
}

function toEvaluationCellRow(r: EvaluationCellSqlRow): EvaluationCellRow {
  return {
    submissionId: r.submission_id,
    paperId: r.paper_id,
    runIndex: r.run_index,
    importedResult: r.imported_result,
    flags: r.flags,
    resourcesProvided: r.resources_provided,
    stage: r.stage,
    attempts: r.attempts,
    failureKind: r.failure_kind,
    failureReason: r.failure_reason,
    jobId: r.job_id,
    judgeRunId: r.judge_run_id,
    latestJobStatus: r.job_status,
    gradingId: r.grading_id,
    score: r.score,
    invalidLeaves: r.invalid_leaves,
    leaves: r.leaves,
    inReview: r.in_review,
    provenance: r.provenance,
    placeholder: r.judge_placeholder === true,
    reproduction:
      r.cell_job_status === null
        ? null
        : {
            status: r.cell_job_status,
            exitCode: r.cell_job_exit_code,
            durationS: r.cell_job_duration_s,
            timeoutS: r.cell_job_timeout_s,
            reason: r.cell_job_reason,
          },
  };
}

/** An evaluation's cells, by paper and run. */
export async function listEvaluationCellRows(db: Executor, evaluationId: string): Promise<EvaluationCellRow[]> {
  const result = await db.execute<EvaluationCellSqlRow>(sql`
    SELECT s.id AS submission_id, s.paper_id, s.run_index, s.imported_result, s.flags, e.resources_provided,
      ec.stage, ec.attempts, ec.failure_kind, ec.failure_reason, ec.job_id, ec.judge_run_id,
      cj.status AS cell_job_status, cj.exit_code AS cell_job_exit_code, cj.timeout_s AS cell_job_timeout_s, cj.failure_reason AS cell_job_reason,
      COALESCE((cj.result->'metadata'->>'repro_execution_time')::float8, (cj.result->>'durationS')::float8,
        EXTRACT(EPOCH FROM (cj.finished_at - cj.started_at))::float8) AS cell_job_duration_s,
      (SELECT j.status FROM jobs j WHERE j.submission_id = s.id AND j.kind = 'reproduce'
        ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS job_status,
      g.id AS grading_id, g.score, g.provenance, g.judge_placeholder,
      (SELECT count(*) FROM grading_verdicts v WHERE v.grading_id = g.id AND NOT v.valid)::int AS invalid_leaves,
      (SELECT count(*) FROM grading_verdicts v WHERE v.grading_id = g.id)::int AS leaves,
      EXISTS (SELECT 1 FROM grading_review_samples rs, jsonb_array_elements_text(rs.node_keys) AS k(node_key)
              WHERE rs.grading_id = g.id
                AND NOT EXISTS (SELECT 1 FROM grading_reviews r WHERE r.grading_id = g.id AND r.node_key::text = k.node_key)) AS in_review
    FROM submissions s
    JOIN evaluations e ON e.id = s.evaluation_id
    LEFT JOIN evaluation_cells ec ON ec.submission_id = s.id
    LEFT JOIN jobs cj ON cj.id = ec.job_id
    LEFT JOIN LATERAL (
      SELECT id, score, provenance, judge_placeholder FROM gradings WHERE submission_id = s.id AND NOT is_lab
      ORDER BY (kind = 'judge') DESC, created_at DESC, id DESC LIMIT 1
    ) g ON true
    WHERE s.evaluation_id = ${evaluationId}
    ORDER BY s.paper_id, s.run_index, s.created_at
  `);
  return result.rows.map(toEvaluationCellRow);
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
  // Every column is cast to float8 or int: a number on both drivers.
  const [gpu, tokens, durations, flight] = await Promise.all([
    db.execute<{ gpu_seconds: number }>(sql`
      SELECT coalesce(sum(extract(epoch FROM (coalesce(a.finished_at, now()) - a.started_at)) * cardinality(a.gpu_indices)), 0)::float8 AS gpu_seconds
      FROM job_attempts a JOIN jobs j ON j.id = a.job_id JOIN submissions s ON s.id = j.submission_id
      WHERE s.evaluation_id = ${evaluationId} AND j.kind = 'reproduce'
    `),
    db.execute<{ input: number; cached: number; output: number; cost: number }>(sql`
      SELECT coalesce(sum(r.input_tokens), 0)::float8 AS input, coalesce(sum(r.cached_input_tokens), 0)::float8 AS cached,
        coalesce(sum(r.output_tokens), 0)::float8 AS output, coalesce(sum(r.cost_usd), 0)::float8 AS cost
      FROM judge_runs r JOIN submissions s ON s.id = r.submission_id JOIN gradings g ON g.id = r.grading_id
      WHERE s.evaluation_id = ${evaluationId} AND NOT g.is_lab
    `),
    db.execute<{ duration_s: number }>(sql`
      SELECT extract(epoch FROM (finished_at - started_at))::float8 AS duration_s FROM evaluation_cells
      WHERE evaluation_id = ${evaluationId} AND finished_at IS NOT NULL
    `),
    db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM evaluation_cells WHERE evaluation_id = ${evaluationId} AND stage IN ('reproducing', 'judging')
    `),
  ]);
  // Aggregates without GROUP BY: always one row.
  const t = tokens.rows[0];
  return {
    gpuSeconds: gpu.rows[0].gpu_seconds,
    inputTokens: t.input,
    cachedInputTokens: t.cached,
    outputTokens: t.output,
    costUsd: t.cost,
    finishedDurationsS: durations.rows.map((r) => r.duration_s),
    inFlight: flight.rows[0].n,
  };
}
