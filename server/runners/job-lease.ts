import "server-only";
import type { Store } from "@/db/client";
import { getJobAttemptByLease, getJobById, getJobUnderLease, insertLogChunks, setJobOutputs } from "@/db/queries/jobs";
import { touchRunner } from "@/db/queries/runners";
import type { Job } from "@/db/schema";
import type { OutputsIndex } from "@/lib/jobs/outputs-index";
import { jobEndOf } from "@/lib/jobs/states";
import { AppError } from "@/lib/errors";
import type { CompleteRequest, HeartbeatResponse, LogsRequest, ReleaseRequest } from "@/lib/runner/protocol";
import { readServerEnv } from "@/lib/env";
import { bearerToken, runnerTokenIsLive } from "./runner-tokens";
import { followJobCancel } from "@/server/live/job-feed";
import { finishJob, renewJobLease, reportJobProgress, requeueJob, type JobLease } from "@/server/jobs/job-lifecycle";
import { readJobToken } from "./job-token";
import { longPollPause } from "@/server/jobs/long-poll-pause";

/**
 * What a runner does under a job's lease: heartbeats, log chunks, the outputs and the completion.
 * Every one is fenced: it is refused with 409 `stale_lease` unless the lease it names is the job's
 * current one and has not expired, so a runner that lost its job (killed, partitioned, too slow to
 * renew) can never overwrite what the job's next holder does, and a job completes once.
 */
export type { JobLease };

/**
 * The job and lease a request's job token names; 401 unless it is a genuine token for this job
 * whose runner token is still live: revoking a runner token cuts off its running jobs at once
 * (their heartbeats fail, so their leases expire and the queue requeues or fails them).
 */
export async function authenticateJobToken(store: Store, req: Request, jobId: string): Promise<JobLease> {
  const token = bearerToken(req);
  const read = token ? readJobToken(token) : null;
  if (!read) throw new AppError("unauthorized", "Send this job's token: Authorization: Bearer rst_job_…");
  if (read.jobId !== jobId) throw new AppError("forbidden", "This job token is for another job");
  if (!(await runnerTokenIsLive(store, read.runnerTokenId)))
    throw new AppError("unauthorized", "The runner token this job was claimed with was revoked: stop the job");
  return { jobId: read.jobId, leaseId: read.leaseId };
}

function staleLease(): AppError {
  return new AppError(
    "stale_lease",
    "This lease is no longer the job's current one (it expired or the job moved on): stop the job and do not complete it",
  );
}

function sameLease(lease: JobLease, leaseId: string): void {
  if (lease.leaseId !== leaseId) throw staleLease();
}

export async function heartbeatJob(store: Store, lease: JobLease, leaseId: string): Promise<HeartbeatResponse> {
  sameLease(lease, leaseId);
  const renewed = await renewJobLease(store, lease);
  if (!renewed) throw staleLease();
  if (renewed.runnerId) await touchRunner(store.db, renewed.runnerId);
  return { leaseExpiresAt: renewed.leaseExpiresAt.toISOString(), cancel: renewed.cancelRequested };
}

/** Between two looks at the job while nothing was announced (a notification lost with a connection). */
const CANCEL_RECHECK_MS = 5_000;

/**
 * The runner's wait-cancel long poll: answers `cancel: true` as soon as staff cancel the job (woken
 * by `announceJobCancelRequested` from any instance), `false` after `waitS`; 409 `stale_lease`
 * once the lease is no longer current, like every request under it.
 */
export async function waitForJobCancel(
  store: Store,
  lease: JobLease,
  body: { leaseId: string; waitS: number },
  signal?: AbortSignal,
): Promise<{ cancel: boolean }> {
  sameLease(lease, body.leaseId);
  const deadline = Date.now() + body.waitS * 1000;
  let wake: (() => void) | null = null;
  // Followed before the first look, so a cancel between the look and the wait is not missed.
  const unfollow = await followJobCancel(lease.jobId, () => wake?.(), { databaseUrl: readServerEnv().DATABASE_URL });
  try {
    for (;;) {
      const job = await getJobUnderLease(store.db, lease.jobId, lease.leaseId);
      if (!job) throw staleLease();
      if (job.cancelRequestedAt) return { cancel: true };
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return { cancel: false };
      await longPollPause(Math.min(left, CANCEL_RECHECK_MS), signal, (w) => (wake = w));
    }
  } finally {
    unfollow();
  }
}

export async function appendJobLogs(store: Store, lease: JobLease, body: LogsRequest): Promise<{ stored: number }> {
  sameLease(lease, body.leaseId);
  const job = await store.db.transaction(async (tx) => {
    const job = await getJobUnderLease(tx, lease.jobId, lease.leaseId);
    if (!job) throw staleLease();
    await insertLogChunks(tx, job.id, job.attempts, body.chunks);
    return job;
  });
  await reportJobProgress(store, job);
  return { stored: body.chunks.length };
}

/** The job under a current lease (the submission download checks this before streaming). */
export async function requireCurrentLease(store: Store, lease: JobLease): Promise<Job> {
  const job = await getJobUnderLease(store.db, lease.jobId, lease.leaseId);
  if (!job) throw staleLease();
  return job;
}

export async function recordJobOutputs(
  store: Store,
  lease: JobLease,
  outputs: { sha256: string; index: OutputsIndex },
): Promise<void> {
  if (!(await setJobOutputs(store.db, lease.jobId, lease.leaseId, outputs.sha256, outputs.index))) throw staleLease();
}

/** A stopping runner hands the job back: queued again at once (or cancelled, if that was asked). */
export async function releaseJob(store: Store, lease: JobLease, body: ReleaseRequest): Promise<Job> {
  sameLease(lease, body.leaseId);
  const job = await requeueJob(store, lease, body.reason);
  if (!job) throw staleLease();
  return job;
}

/**
 * The job's end, once. A cancel accepted before the completion makes it `cancelled` whatever the
 * runner reports (`jobEndOf`): the row is locked first, so a cancel arriving meanwhile waits and
 * then finds the job ended (409), and no race records a cancelled job as succeeded.
 */
export async function completeJob(store: Store, lease: JobLease, body: CompleteRequest): Promise<Job> {
  sameLease(lease, body.leaseId);
  const job = await finishJob(store, lease, {
    end(current) {
      if (body.outputsUploaded && !current.outputsSha256) {
        throw new AppError(
          "bad_request",
          "The completion says outputs were uploaded, but none arrived under this lease",
          [{ path: "outputsUploaded", message: "no outputs stored" }],
        );
      }
      const result = body.metadata
        ? { metadata: body.metadata, durationS: body.durationS }
        : { durationS: body.durationS };
      const reported = { status: body.status, exitCode: body.exitCode, reason: body.reason };
      return { ...jobEndOf(reported, current.cancelRequestedAt !== null), result };
    },
    // A retried completion whose first answer was lost: the same lease already ended it the same way.
    async replay(tx) {
      const attempt = await getJobAttemptByLease(tx.db, lease.jobId, lease.leaseId);
      const job = attempt?.status ? await getJobById(tx.db, lease.jobId) : null;
      const same =
        job &&
        job.attempts === attempt!.attempt &&
        job.status === jobEndOf(body, job.cancelRequestedAt !== null).status &&
        attempt!.status === job.status;
      return same ? job : null;
    },
  });
  if (!job) throw staleLease();
  return job;
}
