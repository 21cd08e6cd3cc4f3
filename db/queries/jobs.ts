import "server-only";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { FinalJobStatus, JobKind, JobStatus } from "@/lib/jobs/states";
import type { Executor } from "../client";
import {
  agents,
  jobAttempts,
  jobLogChunks,
  jobs,
  judgeRuns,
  runners,
  submissions,
  type Job,
  type JobAttempt,
  type JudgeRun,
} from "../schema";

export interface NewJobInput {
  kind: JobKind;
  paperId: string;
  submissionId: string | null;
  payload?: unknown;
  gpusRequired: number;
  timeoutS: number;
  maxAttempts: number;
  createdBy: string | null;
}

export async function insertJob(db: Executor, input: NewJobInput): Promise<Job> {
  const [row] = await db
    .insert(jobs)
    .values({ ...input, payload: input.payload ?? {} })
    .returning();
  return row;
}

/**
 * The fencing rule, written once: the job is running under this lease and the lease has not
 * expired. Everything a runner or worker writes under a lease is conditioned on it.
 */
function underCurrentLease(jobId: string, leaseId: string): SQL | undefined {
  return and(
    eq(jobs.id, jobId),
    eq(jobs.leaseId, leaseId),
    eq(jobs.status, "running"),
    sql`${jobs.leaseExpiresAt} > now()`,
  );
}

/** The attempt a lease was issued for. */
function attemptOfLease(jobId: string, leaseId: string): SQL | undefined {
  return and(eq(jobAttempts.jobId, jobId), eq(jobAttempts.leaseId, leaseId));
}

export async function getJobById(db: Executor, id: string): Promise<Job | null> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
  return row ?? null;
}

/**
 * Takes the oldest queued job of `kind` that needs at most `freeGpus.length` GPUs, under a new
 * lease, for this runner: `FOR UPDATE SKIP LOCKED`, so concurrent claims never take one job twice
 * and never wait on each other. The job gets the first GPUs of `freeGpus` it needs.
 */
export async function claimQueuedJob(
  db: Executor,
  claim: {
    kind: JobKind;
    runnerId: string | null;
    runnerName: string | null;
    freeGpus: number[];
    leaseId: string;
    leaseS: number;
  },
): Promise<Job | null> {
  const gpus = sql`ARRAY[${sql.join(
    claim.freeGpus.map((g) => sql`${g}`),
    sql`, `,
  )}]::integer[]`;
  const result = await db.execute<{ id: string }>(sql`
    UPDATE jobs SET
      status = 'running',
      attempts = attempts + 1,
      lease_id = ${claim.leaseId},
      lease_expires_at = now() + make_interval(secs => ${claim.leaseS}),
      runner_id = ${claim.runnerId},
      gpu_indices = (${gpus})[1:gpus_required],
      started_at = coalesce(started_at, now()),
      updated_at = now()
    WHERE id = (
      SELECT id FROM jobs
      WHERE kind = ${claim.kind} AND status = 'queued' AND gpus_required <= ${claim.freeGpus.length}
      ORDER BY created_at, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`);
  const id = result.rows[0]?.id;
  if (!id) return null;
  const job = await getJobById(db, id);
  if (!job) return null;
  await db.insert(jobAttempts).values({
    jobId: job.id,
    attempt: job.attempts,
    leaseId: claim.leaseId,
    runnerId: claim.runnerId,
    runnerName: claim.runnerName,
    gpuIndices: job.gpuIndices,
  });
  return job;
}

/** The running job under this lease, if the lease is still current (not expired, not moved). */
export async function getJobUnderLease(db: Executor, jobId: string, leaseId: string): Promise<Job | null> {
  const [row] = await db.select().from(jobs).where(underCurrentLease(jobId, leaseId)).limit(1);
  return row ?? null;
}

/**
 * `getJobUnderLease` with the row locked until the transaction ends: what the completion reads
 * (a cancel request) cannot change before it writes, and a cancel waits for it, then finds the job ended.
 */
export async function lockJobUnderLease(db: Executor, jobId: string, leaseId: string): Promise<Job | null> {
  const [row] = await db.select().from(jobs).where(underCurrentLease(jobId, leaseId)).limit(1).for("update");
  return row ?? null;
}

/** Renews a current lease; null when the lease is no longer current (fencing). */
export async function renewLease(
  db: Executor,
  jobId: string,
  leaseId: string,
  leaseS: number,
): Promise<{ leaseExpiresAt: Date; cancelRequested: boolean; runnerId: string | null } | null> {
  const [row] = await db
    .update(jobs)
    .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${leaseS})`, updatedAt: sql`now()` })
    .where(underCurrentLease(jobId, leaseId))
    .returning({
      leaseExpiresAt: jobs.leaseExpiresAt,
      cancelRequestedAt: jobs.cancelRequestedAt,
      runnerId: jobs.runnerId,
    });
  if (!row) return null;
  return {
    leaseExpiresAt: row.leaseExpiresAt!,
    cancelRequested: row.cancelRequestedAt !== null,
    runnerId: row.runnerId,
  };
}

/** Log chunks of one attempt; a chunk whose `seq` is already stored is left as it was (a resend). */
export async function insertLogChunks(
  db: Executor,
  jobId: string,
  attempt: number,
  chunks: { seq: number; text: string }[],
): Promise<void> {
  if (chunks.length === 0) return;
  await db
    .insert(jobLogChunks)
    .values(chunks.map((c) => ({ jobId, attempt, seq: c.seq, text: c.text })))
    .onConflictDoNothing();
}

export interface LogChunkRow {
  attempt: number;
  seq: number;
  text: string;
}

/** Chunks after (attempt, seq), in order: the log stream's catch-up and follow reads. */
export async function listLogChunksAfter(
  db: Executor,
  jobId: string,
  after: { attempt: number; seq: number },
  limit = 500,
): Promise<LogChunkRow[]> {
  return db
    .select({ attempt: jobLogChunks.attempt, seq: jobLogChunks.seq, text: jobLogChunks.text })
    .from(jobLogChunks)
    .where(
      and(
        eq(jobLogChunks.jobId, jobId),
        sql`(${jobLogChunks.attempt}, ${jobLogChunks.seq}) > (${after.attempt}, ${after.seq})`,
      ),
    )
    .orderBy(jobLogChunks.attempt, jobLogChunks.seq)
    .limit(limit);
}

/** The last `maxChars` of an attempt's log (the CLI's `logTail`, the jobs list). */
export async function getLogTail(db: Executor, jobId: string, attempt: number, maxChars: number): Promise<string> {
  const rows = await db
    .select({ text: jobLogChunks.text })
    .from(jobLogChunks)
    .where(and(eq(jobLogChunks.jobId, jobId), eq(jobLogChunks.attempt, attempt)))
    .orderBy(desc(jobLogChunks.seq))
    .limit(200);
  let tail = "";
  for (const r of rows) {
    tail = r.text + tail;
    if (tail.length >= maxChars) break;
  }
  return tail.slice(-maxChars);
}

/** The outputs archive of the current attempt and its file index (kept in `result.outputs`). */
export async function setJobOutputs(
  db: Executor,
  jobId: string,
  leaseId: string,
  sha256: string,
  index: unknown,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      outputsSha256: sha256,
      result: sql`coalesce(${jobs.result}, '{}'::jsonb) || jsonb_build_object('outputs', ${JSON.stringify(index)}::jsonb)`,
      updatedAt: sql`now()`,
    })
    .where(underCurrentLease(jobId, leaseId))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Ends a job under its current lease, once: null when the lease is no longer current. */
export async function finishJobUnderLease(
  db: Executor,
  jobId: string,
  leaseId: string,
  end: { status: FinalJobStatus; exitCode: number | null; reason: string | null; result: unknown },
): Promise<Job | null> {
  const [row] = await db
    .update(jobs)
    .set({
      status: end.status,
      exitCode: end.exitCode,
      failureReason: end.reason,
      // Merged: the outputs' index was stored with the upload.
      result: sql`coalesce(${jobs.result}, '{}'::jsonb) || ${JSON.stringify(end.result)}::jsonb`,
      finishedAt: sql`now()`,
      leaseId: null,
      leaseExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(underCurrentLease(jobId, leaseId))
    .returning();
  if (!row) return null;
  await db
    .update(jobAttempts)
    .set({ status: end.status, exitCode: end.exitCode, reason: end.reason, finishedAt: sql`now()` })
    .where(attemptOfLease(jobId, leaseId));
  return row;
}

/**
 * Puts a running job back in the queue under its current lease (its runner is stopping): the
 * attempt is recorded as ended with the reason and does not count against the job's attempts
 * (`max_attempts` grows by one); a job someone asked to cancel is cancelled instead. Null when the
 * lease is no longer current.
 */
export async function releaseJobUnderLease(
  db: Executor,
  jobId: string,
  leaseId: string,
  reason: string,
): Promise<Job | null> {
  const [row] = await db
    .update(jobs)
    .set({
      status: sql`CASE WHEN ${jobs.cancelRequestedAt} IS NOT NULL THEN 'cancelled'::job_status ELSE 'queued'::job_status END`,
      maxAttempts: sql`CASE WHEN ${jobs.cancelRequestedAt} IS NOT NULL THEN ${jobs.maxAttempts} ELSE ${jobs.maxAttempts} + 1 END`,
      finishedAt: sql`CASE WHEN ${jobs.cancelRequestedAt} IS NOT NULL THEN now() ELSE NULL END`,
      leaseId: null,
      leaseExpiresAt: null,
      runnerId: null,
      gpuIndices: sql`'{}'::integer[]`,
      updatedAt: sql`now()`,
    })
    .where(underCurrentLease(jobId, leaseId))
    .returning();
  if (!row) return null;
  await db
    .update(jobAttempts)
    .set({ status: "failed", reason: `Released: ${reason}`, finishedAt: sql`now()` })
    .where(attemptOfLease(jobId, leaseId));
  return row;
}

/**
 * Every running job whose lease has expired: requeued while it has attempts left, else failed
 * with the reason; a job someone asked to cancel is cancelled instead. Returns what changed.
 */
export async function expireLeases(
  db: Executor,
): Promise<{ id: string; kind: JobKind; status: JobStatus; paperId: string; submissionId: string | null }[]> {
  const result = await db.execute<{
    id: string;
    kind: JobKind;
    status: JobStatus;
    paper_id: string;
    submission_id: string | null;
    attempts: number;
    old_lease: string;
  }>(sql`
    WITH expired AS (
      SELECT id, lease_id AS old_lease FROM jobs
      WHERE status = 'running' AND lease_expires_at < now()
      FOR UPDATE SKIP LOCKED
    )
    UPDATE jobs j SET
      status = CASE
        WHEN j.cancel_requested_at IS NOT NULL THEN 'cancelled'::job_status
        WHEN j.attempts >= j.max_attempts THEN 'failed'::job_status
        ELSE 'queued'::job_status END,
      failure_reason = CASE
        WHEN j.cancel_requested_at IS NOT NULL THEN 'Cancelled; it stopped answering before it confirmed'
        WHEN j.attempts >= j.max_attempts THEN 'The ' || CASE WHEN j.kind = 'judge' THEN 'judge worker' ELSE 'runner' END || ' stopped answering (lease expired) on the last of ' || j.max_attempts || ' attempts'
        ELSE j.failure_reason END,
      finished_at = CASE WHEN j.cancel_requested_at IS NOT NULL OR j.attempts >= j.max_attempts THEN now() ELSE NULL END,
      lease_id = NULL,
      lease_expires_at = NULL,
      runner_id = NULL,
      gpu_indices = '{}',
      updated_at = now()
    FROM expired
    WHERE j.id = expired.id
    RETURNING j.id, j.kind, j.status, j.paper_id, j.submission_id, j.attempts, expired.old_lease`);
  for (const row of result.rows) {
    await db
      .update(jobAttempts)
      .set({ status: "failed", reason: "It stopped answering: its lease expired", finishedAt: sql`now()` })
      .where(and(eq(jobAttempts.jobId, row.id), eq(jobAttempts.leaseId, row.old_lease)));
  }
  return result.rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    paperId: r.paper_id,
    submissionId: r.submission_id,
  }));
}

/**
 * Asks to cancel: a queued job is cancelled at once; a running one is marked, its runner hears it
 * at once (its wait-cancel long poll) and the completion records it as cancelled whatever the
 * runner reports. Null when the job is already final.
 */
export async function requestJobCancel(db: Executor, jobId: string, userId: string | null): Promise<Job | null> {
  const [queued] = await db
    .update(jobs)
    .set({
      status: "cancelled",
      cancelRequestedAt: sql`now()`,
      cancelRequestedBy: userId,
      finishedAt: sql`now()`,
      failureReason: "Cancelled before it started",
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "queued")))
    .returning();
  if (queued) return queued;
  const [running] = await db
    .update(jobs)
    .set({
      cancelRequestedAt: sql`coalesce(${jobs.cancelRequestedAt}, now())`,
      cancelRequestedBy: userId,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running")))
    .returning();
  return running ?? null;
}

export async function getJobAttemptByLease(db: Executor, jobId: string, leaseId: string): Promise<JobAttempt | null> {
  const [row] = await db.select().from(jobAttempts).where(attemptOfLease(jobId, leaseId)).limit(1);
  return row ?? null;
}

export async function listJobAttempts(db: Executor, jobId: string): Promise<JobAttempt[]> {
  return db.select().from(jobAttempts).where(eq(jobAttempts.jobId, jobId)).orderBy(jobAttempts.attempt);
}

export async function listJobsBySubmissionId(db: Executor, submissionId: string): Promise<Job[]> {
  return db.select().from(jobs).where(eq(jobs.submissionId, submissionId)).orderBy(desc(jobs.createdAt));
}

export interface JobListItem {
  job: Job;
  runnerName: string | null;
  agentName: string | null;
  runIndex: number | null;
  /** A judge job's run (null for reproduce jobs). */
  judgeRun: Pick<JudgeRun, "id" | "gradingId" | "leavesTotal" | "leavesDone" | "leavesInvalid" | "costUsd"> | null;
}

/** Jobs for /jobs, newest first, filtered by status, kind and paper. */
export async function listJobs(
  db: Executor,
  filter: { statuses?: JobStatus[]; kind?: JobKind; paperId?: string; limit: number },
): Promise<JobListItem[]> {
  const where: SQL[] = [];
  if (filter.statuses?.length) where.push(inArray(jobs.status, filter.statuses));
  if (filter.kind) where.push(eq(jobs.kind, filter.kind));
  if (filter.paperId) where.push(eq(jobs.paperId, filter.paperId));
  const rows = await db
    .select({
      job: jobs,
      runnerName: runners.name,
      agentName: agents.name,
      runIndex: submissions.runIndex,
      judgeRun: {
        id: judgeRuns.id,
        gradingId: judgeRuns.gradingId,
        leavesTotal: judgeRuns.leavesTotal,
        leavesDone: judgeRuns.leavesDone,
        leavesInvalid: judgeRuns.leavesInvalid,
        costUsd: judgeRuns.costUsd,
      },
    })
    .from(jobs)
    .leftJoin(runners, eq(runners.id, jobs.runnerId))
    .leftJoin(submissions, eq(submissions.id, jobs.submissionId))
    .leftJoin(agents, eq(agents.id, submissions.agentId))
    .leftJoin(judgeRuns, eq(judgeRuns.jobId, jobs.id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(jobs.createdAt))
    .limit(filter.limit);
  return rows;
}

/** Queued jobs per kind (the queue depth /jobs shows and KEDA scales on). */
export async function countQueuedJobs(db: Executor): Promise<Record<JobKind, number>> {
  const rows = await db
    .select({ kind: jobs.kind, n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(eq(jobs.status, "queued"))
    .groupBy(jobs.kind);
  const out: Record<JobKind, number> = { reproduce: 0, judge: 0 };
  for (const r of rows) out[r.kind] = Number(r.n);
  return out;
}

/** Running jobs of a runner (the /runners page's current job). */
export async function listRunningJobsByRunner(
  db: Executor,
  runnerIds: string[],
): Promise<Pick<Job, "id" | "runnerId" | "paperId" | "submissionId" | "startedAt" | "gpuIndices">[]> {
  if (runnerIds.length === 0) return [];
  return db
    .select({
      id: jobs.id,
      runnerId: jobs.runnerId,
      paperId: jobs.paperId,
      submissionId: jobs.submissionId,
      startedAt: jobs.startedAt,
      gpuIndices: jobs.gpuIndices,
    })
    .from(jobs)
    .where(and(eq(jobs.status, "running"), inArray(jobs.runnerId, runnerIds)));
}

/** How many jobs there are of each kind in each status (the metrics' queue depth); pairs with none are absent. */
export async function countJobsByKindAndStatus(
  db: Executor,
): Promise<{ kind: JobKind; status: JobStatus; count: number }[]> {
  const rows = await db
    .select({ kind: jobs.kind, status: jobs.status, count: sql<number>`count(*)` })
    .from(jobs)
    .groupBy(jobs.kind, jobs.status);
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

export interface JobTimingSummary {
  kind: JobKind;
  count: number;
  /** Queued → first claimed, in seconds: the sum and each quantile asked for, in order. */
  waitSumS: number;
  waitQuantilesS: number[];
  /** First claimed → finished, in seconds. */
  runSumS: number;
  runQuantilesS: number[];
}

/** Claim wait and duration of the jobs of each kind that finished in the last `windowS` seconds after a claim. */
export async function summariseFinishedJobTimings(
  db: Executor,
  windowS: number,
  quantiles: readonly number[],
): Promise<JobTimingSummary[]> {
  const qs = sql`ARRAY[${sql.join(
    quantiles.map((q) => sql`${q}::float8`),
    sql`, `,
  )}]`;
  const result = await db.execute<{
    kind: JobKind;
    count: string | number;
    wait_sum: string | number;
    wait_q: (string | number)[];
    run_sum: string | number;
    run_q: (string | number)[];
  }>(sql`
    SELECT kind, count(*) AS count,
           sum(wait_s) AS wait_sum, percentile_cont(${qs}) WITHIN GROUP (ORDER BY wait_s) AS wait_q,
           sum(run_s) AS run_sum, percentile_cont(${qs}) WITHIN GROUP (ORDER BY run_s) AS run_q
    FROM (
      SELECT kind, extract(epoch FROM started_at - created_at)::float8 AS wait_s, extract(epoch FROM finished_at - started_at)::float8 AS run_s
      FROM jobs
      WHERE finished_at > now() - make_interval(secs => ${windowS}) AND started_at IS NOT NULL
    ) finished
    GROUP BY kind`);
  return result.rows.map((r) => ({
    kind: r.kind,
    count: Number(r.count),
    waitSumS: Number(r.wait_sum),
    waitQuantilesS: r.wait_q.map(Number),
    runSumS: Number(r.run_sum),
    runQuantilesS: r.run_q.map(Number),
  }));
}
