import "server-only";
import type { Store } from "@/db/client";
import type { JobKind } from "@/lib/jobs/states";
import type { JobEvent } from "@/server/jobs/job-events";
import { announceLive, followRubric } from "@/server/live/rubric-feed";

/**
 * The queue on the live feed (in-process events, NOTIFY on PostgreSQL): a job's own topic (its log
 * and state, followed by log streams and pages) and one topic per kind that wakes long-polling
 * claims when a job is queued. Topics have a colon; a paper's topic never does.
 */
const jobTopic = (jobId: string) => `job:${jobId}`;
const queueTopic = (kind: JobKind) => `queue:${kind}`;
/** Only cancel requests: the runner's wait-cancel long poll follows it, not every log chunk of `job:`. */
const cancelTopic = (jobId: string) => `job-cancel:${jobId}`;

export async function announceJobChanged(store: Store, jobId: string): Promise<void> {
  await announceLive(store, jobTopic(jobId), { type: "job" });
}

export async function announceJobCancelRequested(store: Store, jobId: string): Promise<void> {
  await Promise.all([announceLive(store, cancelTopic(jobId), { type: "job" }), announceJobChanged(store, jobId)]);
}

export async function announceJobQueued(store: Store, kind: JobKind, jobId: string): Promise<void> {
  await Promise.all([announceLive(store, queueTopic(kind), { type: "job" }), announceJobChanged(store, jobId)]);
}

/**
 * The live feed's subscription to the queue's events: the job's followers re-read it; a job queued
 * (or back in the queue) wakes the claims of its kind; a cancel of a running job reaches its holder.
 */
export async function announceJobEvent(store: Store, event: JobEvent): Promise<void> {
  const { id, kind, status } = event.job;
  if (status === "queued") await announceJobQueued(store, kind, id);
  else if (event.type === "cancelled" && status === "running") await announceJobCancelRequested(store, id);
  else await announceJobChanged(store, id);
}

export function followJob(
  jobId: string,
  listener: () => void,
  opts: { databaseUrl?: string } = {},
): Promise<() => void> {
  return followRubric(jobTopic(jobId), listener, opts);
}

export function followQueue(
  kind: JobKind,
  listener: () => void,
  opts: { databaseUrl?: string } = {},
): Promise<() => void> {
  return followRubric(queueTopic(kind), listener, opts);
}

export function followJobCancel(
  jobId: string,
  listener: () => void,
  opts: { databaseUrl?: string } = {},
): Promise<() => void> {
  return followRubric(cancelTopic(jobId), listener, opts);
}
