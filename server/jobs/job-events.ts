import "server-only";
import { log } from "@/server/observability/log";
import type { Store } from "@/db/client";
import type { JobKind, JobStatus } from "@/lib/jobs/states";

/**
 * What happened to a job, published by the queue after the transaction that did it committed.
 * Features subscribe at start-up (`server/job-platform.ts`): the live job feed, the evaluation
 * pipeline (whose cells move on with their jobs), … The queue calls none of them by name.
 */
export type JobEventType =
  /** Inserted, or back in the queue by a requeue: claims of its kind wake. */
  | "queued"
  /** Taken under a new lease (a runner or a worker). */
  | "claimed"
  /** Its holder wrote under its lease: a log chunk, verdicts. */
  | "progress"
  /** Its holder found its lease gone (a heartbeat or a fenced write refused): it stops, the lease runs out. */
  | "heartbeat-lost"
  /** Its holder handed it back (stopping): queued again, or cancelled if that was asked. */
  | "requeued"
  /** Its lease ran out: queued again while attempts are left, else failed (or cancelled, if asked). */
  | "expired"
  /** Staff cancelled it: a queued job is cancelled at once; a running one (status `running`) is asked to stop. */
  | "cancelled"
  /** Its holder ended it under its lease (succeeded, failed, timed out, cancelled). */
  | "ended";

export interface JobEvent {
  type: JobEventType;
  job: { id: string; kind: JobKind; status: JobStatus };
}

export type JobEventListener = (store: Store, event: JobEvent) => Promise<void>;

interface Subscriber {
  name: string;
  listener: JobEventListener;
}

/** Kept on globalThis: Next.js may load this module once per route bundle, and start-up subscribes in its own. */
const globalForEvents = globalThis as unknown as { __rubricJobEvents?: Subscriber[] };
function subscribers(): Subscriber[] {
  globalForEvents.__rubricJobEvents ??= [];
  return globalForEvents.__rubricJobEvents;
}

/** Subscribes, once per name (subscribing again replaces the earlier listener). Listeners run in subscription order. */
export function subscribeJobEvents(name: string, listener: JobEventListener): void {
  const list = subscribers();
  const at = list.findIndex((s) => s.name === name);
  if (at >= 0) list[at] = { name, listener };
  else list.push({ name, listener });
}

/**
 * Runs every subscriber on the event, one after another, after the change committed. A failing
 * subscriber never fails the queue's operation nor the subscribers after it: each keeps its own
 * catch-up (the evaluation sweep, a follower's periodic look).
 */
export async function publishJobEvent(store: Store, event: JobEvent): Promise<void> {
  for (const { name, listener } of subscribers()) {
    try {
      await listener(store, event);
    } catch (err) {
      log.error({ err, jobId: event.job.id, event: event.type, subscriber: name }, "a job event's subscriber failed");
    }
  }
}

/** A job was inserted (after its transaction committed): claims of its kind wake. */
export function publishJobQueued(store: Store, job: JobEvent["job"]): Promise<void> {
  return publishJobEvent(store, { type: "queued", job });
}
