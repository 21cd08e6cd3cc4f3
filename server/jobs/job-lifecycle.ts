import "server-only";
import { randomUUID } from "node:crypto";
import type { Store } from "@/db/client";
import {
  claimQueuedJob,
  finishJobUnderLease,
  getJobById,
  lockJobUnderLease,
  releaseJobUnderLease,
  renewLease,
} from "@/db/queries/jobs";
import type { Job } from "@/db/schema";
import type { JobEnd, JobKind } from "@/lib/jobs/states";
import { claimableJobKind, type ClaimPolicy } from "./job-kinds";
import { publishJobEvent, type JobEventType } from "./job-events";
import { queueTimings } from "./queue-config";
import { reapExpiredLeasesThrottled } from "./reap-expired-leases";

/**
 * A job's life under a lease, written once for every holder: runners over HTTP (`job-lease.ts`)
 * and the workers inside studio processes (`job-worker.ts`). Every write under a lease is fenced
 * (the queries' `underCurrentLease`): a holder that lost its lease (killed, partitioned, too slow to
 * renew) never overwrites what the job's next holder does, and a job ends once. Each change is
 * published after its commit (`job-events.ts`).
 */
export interface JobLease {
  jobId: string;
  leaseId: string;
}

/** A write under a lease found it no longer current: the holder stops and writes nothing more. */
export class LeaseLost extends Error {
  constructor(message = "The job's lease is no longer current") {
    super(message);
    this.name = "LeaseLost";
  }
}

function publish(store: Store, type: JobEventType, job: Pick<Job, "id" | "kind" | "status">): Promise<void> {
  return publishJobEvent(store, { type, job: { id: job.id, kind: job.kind, status: job.status } });
}

/**
 * The oldest queued job of `kind` the claimer can run (at most `freeGpus.length` GPUs), under a new
 * lease, or null. Expired leases are reaped first (at most once a second per process), so a dead
 * holder's job is back in the queue whenever anyone claims. The claim is published without being
 * awaited: the claimer gets its job at once.
 */
export async function claimJob(
  store: Store,
  claim: { kind: JobKind; by: ClaimPolicy["by"]; runnerId: string | null; runnerName: string; freeGpus: number[] },
): Promise<{ job: Job; leaseId: string } | null> {
  claimableJobKind(claim.kind, claim.by);
  await reapExpiredLeasesThrottled(store);
  const leaseId = randomUUID();
  const job = await store.db.transaction((tx) =>
    claimQueuedJob(tx, {
      kind: claim.kind,
      runnerId: claim.runnerId,
      runnerName: claim.runnerName,
      freeGpus: claim.freeGpus,
      leaseId,
      leaseS: queueTimings().leaseS,
    }),
  );
  if (!job) return null;
  void publish(store, "claimed", job);
  return { job, leaseId };
}

/** Renews a current lease; null (published as `heartbeat-lost`) when it is no longer current. */
export async function renewJobLease(
  store: Store,
  lease: JobLease,
): Promise<{ leaseExpiresAt: Date; cancelRequested: boolean; runnerId: string | null } | null> {
  const renewed = await renewLease(store.db, lease.jobId, lease.leaseId, queueTimings().leaseS);
  if (!renewed) await reportLeaseLost(store, lease.jobId);
  return renewed;
}

/** The holder found its lease gone (a refused heartbeat or fenced write): its followers and features hear it. */
export async function reportLeaseLost(store: Store, jobId: string): Promise<void> {
  const job = await getJobById(store.db, jobId);
  if (job) await publish(store, "heartbeat-lost", job);
}

/** The holder wrote under its lease (a log chunk, verdicts): followers re-read the job. */
export async function reportJobProgress(store: Store, job: Pick<Job, "id" | "kind" | "status">): Promise<void> {
  await publish(store, "progress", job);
}

/**
 * Ends the job under its lease, once, in one transaction with the row locked first: a cancel
 * arriving meanwhile waits, then finds the job ended. `end` decides the end from the locked row (it
 * may refuse by throwing); `onEnd` writes what ends with the job in the same transaction. When the
 * lease is no longer current, `replay` may return the job as this same lease already ended it (a
 * retried completion whose answer was lost); else null.
 */
export async function finishJob(
  store: Store,
  lease: JobLease,
  how: {
    end(current: Job): JobEnd & { result: unknown };
    onEnd?(tx: Store, ended: Job): Promise<void>;
    replay?(tx: Store): Promise<Job | null>;
  },
): Promise<Job | null> {
  const job = await store.db.transaction(async (db) => {
    const tx: Store = { ...store, db };
    const current = await lockJobUnderLease(db, lease.jobId, lease.leaseId);
    if (!current) return (await how.replay?.(tx)) ?? null;
    const ended = await finishJobUnderLease(db, lease.jobId, lease.leaseId, how.end(current));
    if (!ended) return null;
    await how.onEnd?.(tx, ended);
    return ended;
  });
  if (job) await publish(store, "ended", job);
  return job;
}

/** The holder hands the job back (it is stopping): queued again at once, or cancelled if that was asked. Null when the lease is not current. */
export async function requeueJob(store: Store, lease: JobLease, reason: string): Promise<Job | null> {
  const job = await store.db.transaction((tx) => releaseJobUnderLease(tx, lease.jobId, lease.leaseId, reason));
  if (job) await publish(store, "requeued", job);
  return job;
}
