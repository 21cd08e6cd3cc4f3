import "server-only";
import { desc, eq, isNotNull, sql, type InferInsertModel } from "drizzle-orm";
import type { Executor } from "../client";
import type { JudgeRunHistoryRow } from "@/lib/judge/run-history";
import { gradings, jobs, judgeConfigs, judgeRuns, type Job, type JudgeRun } from "../schema";
import { toNumber, type SqlNumeric } from "./sql-row";

/** Judge runs: the row a run's progress is read from, and the totals its verdicts add up to. */

export async function insertJudgeRun(tx: Executor, values: InferInsertModel<typeof judgeRuns>): Promise<JudgeRun> {
  const [row] = await tx.insert(judgeRuns).values(values).returning();
  return row;
}

export async function getJudgeRunById(db: Executor, id: string): Promise<JudgeRun | null> {
  const [row] = await db.select().from(judgeRuns).where(eq(judgeRuns.id, id)).limit(1);
  return row ?? null;
}

/** The run with its job (status, cancel, failure), as its progress is shown. */
export async function getJudgeRunWithJob(db: Executor, id: string): Promise<{ run: JudgeRun; job: Job | null } | null> {
  const [row] = await db
    .select({ run: judgeRuns, job: jobs })
    .from(judgeRuns)
    .leftJoin(jobs, eq(jobs.id, judgeRuns.jobId))
    .where(eq(judgeRuns.id, id))
    .limit(1);
  return row ?? null;
}

/** A submission's runs with their jobs and their gradings' root scores, newest first (the submission page's progress cards). */
export async function listJudgeRunsBySubmissionId(
  db: Executor,
  submissionId: string,
): Promise<{ run: JudgeRun; job: Job | null; score: number | null }[]> {
  return db
    .select({ run: judgeRuns, job: jobs, score: gradings.score })
    .from(judgeRuns)
    .leftJoin(jobs, eq(jobs.id, judgeRuns.jobId))
    .leftJoin(gradings, eq(gradings.id, judgeRuns.gradingId))
    .where(eq(judgeRuns.submissionId, submissionId))
    .orderBy(desc(judgeRuns.createdAt));
}

/** The latest judge run of a grading: its id and its job's status (whether it is still going, and what the review page shows). */
export async function getJudgeRunStateByGradingId(
  db: Executor,
  gradingId: string,
): Promise<{ id: string; jobStatus: Job["status"] | null } | null> {
  const [row] = await db
    .select({ id: judgeRuns.id, jobStatus: jobs.status })
    .from(judgeRuns)
    .leftJoin(jobs, eq(jobs.id, judgeRuns.jobId))
    .where(eq(judgeRuns.gradingId, gradingId))
    .orderBy(desc(judgeRuns.createdAt))
    .limit(1);
  return row ?? null;
}

/** The run a grading was made by, if any, with its job. */
export async function getJudgeRunByGradingId(
  db: Executor,
  gradingId: string,
): Promise<{ run: JudgeRun; job: Job | null } | null> {
  const [row] = await db
    .select({ run: judgeRuns, job: jobs })
    .from(judgeRuns)
    .leftJoin(jobs, eq(jobs.id, judgeRuns.jobId))
    .where(eq(judgeRuns.gradingId, gradingId))
    .orderBy(desc(judgeRuns.createdAt))
    .limit(1);
  return row ?? null;
}

/** The token usage (per model) of each run of a grading: a re-grade after a rubric change adds a run to it. */
export async function listJudgeRunUsagesByGradingId(db: Executor, gradingId: string): Promise<unknown[]> {
  const rows = await db
    .select({ tokenUsage: judgeRuns.tokenUsage })
    .from(judgeRuns)
    .where(eq(judgeRuns.gradingId, gradingId));
  return rows.map((r) => r.tokenUsage);
}

/** The run's row, locked for update: verdicts of one run add to its totals one at a time. */
export async function lockJudgeRunById(tx: Executor, id: string): Promise<JudgeRun | null> {
  const [row] = await tx.select().from(judgeRuns).where(eq(judgeRuns.id, id)).for("update");
  return row ?? null;
}

export type JudgeRunTotals = Pick<
  JudgeRun,
  | "leavesDone"
  | "leavesInvalid"
  | "calls"
  | "inputTokens"
  | "cachedInputTokens"
  | "outputTokens"
  | "reasoningTokens"
  | "costUsd"
  | "tokenUsage"
>;

export async function setJudgeRunTotals(tx: Executor, id: string, totals: JudgeRunTotals): Promise<void> {
  await tx.update(judgeRuns).set(totals).where(eq(judgeRuns.id, id));
}

/** When the worker first took the run up (kept across resumes). */
export async function markJudgeRunStarted(db: Executor, id: string): Promise<void> {
  await db
    .update(judgeRuns)
    .set({ startedAt: sql`coalesce(${judgeRuns.startedAt}, now())` })
    .where(eq(judgeRuns.id, id));
}

export async function markJudgeRunFinished(db: Executor, id: string): Promise<void> {
  await db
    .update(judgeRuns)
    .set({ finishedAt: sql`now()` })
    .where(eq(judgeRuns.id, id));
}

/**
 * The latest `limit` finished runs, newest first, with their configuration's name now (or, for a
 * deleted one, the name in the run's frozen configuration) and model.
 */
export async function listFinishedJudgeRuns(db: Executor, limit: number): Promise<JudgeRunHistoryRow[]> {
  const rows = await db
    .select({
      runId: judgeRuns.id,
      configId: judgeRuns.configId,
      configName: sql<string>`coalesce(${judgeConfigs.name}, ${judgeRuns.config}->>'name', 'unnamed configuration')`,
      model: sql<string>`coalesce(${judgeRuns.config}->>'model', ${judgeConfigs.model}, '')`,
      startedAt: judgeRuns.startedAt,
      finishedAt: judgeRuns.finishedAt,
      costUsd: judgeRuns.costUsd,
      inputTokens: judgeRuns.inputTokens,
      outputTokens: judgeRuns.outputTokens,
      leavesDone: judgeRuns.leavesDone,
      leavesInvalid: judgeRuns.leavesInvalid,
    })
    .from(judgeRuns)
    .leftJoin(judgeConfigs, eq(judgeConfigs.id, judgeRuns.configId))
    .where(isNotNull(judgeRuns.finishedAt))
    .orderBy(desc(judgeRuns.finishedAt), desc(judgeRuns.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, finishedAt: r.finishedAt! }));
}

export interface JudgeUsageOfModel {
  model: string;
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

/** Judge calls and tokens of every stored run, summed per model (from each run's `token_usage`). */
export async function sumJudgeUsageByModel(db: Executor): Promise<JudgeUsageOfModel[]> {
  const field = (name: string) => sql.raw(`coalesce(sum((u.value ->> '${name}')::numeric), 0)`);
  // numeric sums: text on both drivers.
  const result = await db.execute<
    { model: string } & Record<"calls" | "input" | "cached_input" | "output" | "reasoning", SqlNumeric>
  >(sql`
    SELECT u.key AS model, ${field("calls")} AS calls, ${field("in")} AS input, ${field("cached_in")} AS cached_input,
           ${field("out")} AS output, ${field("reasoning_out")} AS reasoning
    FROM judge_runs r, jsonb_each(CASE WHEN jsonb_typeof(r.token_usage) = 'object' THEN r.token_usage ELSE '{}'::jsonb END) u
    WHERE jsonb_typeof(u.value) = 'object'
    GROUP BY u.key
    ORDER BY u.key`);
  return result.rows.map((r) => ({
    model: r.model,
    calls: toNumber(r.calls),
    inputTokens: toNumber(r.input),
    cachedInputTokens: toNumber(r.cached_input),
    outputTokens: toNumber(r.output),
    reasoningTokens: toNumber(r.reasoning),
  }));
}
