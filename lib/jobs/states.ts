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

export interface JobEnd {
  status: FinalJobStatus;
  exitCode: number | null;
  reason: string | null;
}

/**
 * How a job ends, from what its runner reported and whether staff asked to cancel it before the
 * completion arrived: a cancel accepted first wins, whatever the runner says (a short run may end
 * before the runner hears of the cancel), and the runner's exit code and account stay in the record.
 */
export function jobEndOf(reported: JobEnd, cancelRequested: boolean): JobEnd {
  if (!cancelRequested || reported.status === "cancelled") return reported;
  const how = `${reported.status.replace("_", " ")}${reported.exitCode === null ? "" : `, exit code ${reported.exitCode}`}${reported.reason ? `: ${reported.reason}` : ""}`;
  return {
    status: "cancelled",
    exitCode: reported.exitCode,
    reason: `Cancelled by staff as the run was ending; the runner reported ${how}`,
  };
}
