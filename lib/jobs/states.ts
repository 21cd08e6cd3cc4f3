import { z } from "zod";

/**
 * The job queue's vocabulary, shared by the database enum, the services, the runner protocol and
 * the UI. A job is `queued` until a runner (or the judge worker) claims it under a lease; it ends
 * in one of the final states, once (completions under a stale lease are refused).
 */
export const JOB_KINDS = ["reproduce", "judge"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "timed_out", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const jobStatusSchema = z.enum(JOB_STATUSES);

/** What a runner may report when it finishes a job (`queued`/`running` are the queue's own). */
export const FINAL_JOB_STATUSES = ["succeeded", "failed", "timed_out", "cancelled"] as const;
export type FinalJobStatus = (typeof FINAL_JOB_STATUSES)[number];

export function isFinalJobStatus(status: JobStatus): status is FinalJobStatus {
  return (FINAL_JOB_STATUSES as readonly string[]).includes(status);
}

/** Queue timings: a runner heartbeats every `heartbeatS`; a lease not renewed for `leaseS` expires. */
export const JOB_TIMINGS = {
  leaseS: 60,
  heartbeatS: 15,
  /** The longest a claim request waits for a job before answering "none" (long poll). */
  longPollS: 30,
  /** PaperBench's default reproduction timeout. */
  defaultTimeoutS: 24 * 60 * 60,
  defaultMaxAttempts: 3,
} as const;
