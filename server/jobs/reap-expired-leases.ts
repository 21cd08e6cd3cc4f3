import "server-only";
import type { Store } from "@/db/client";
import { expireLeases } from "@/db/queries/jobs";
import { publishJobEvent } from "./job-events";

/**
 * Requeues (or fails, after the last attempt) every job whose holder stopped renewing its lease,
 * each published as `expired`. Run by every claim (at most once a second per process) and by the
 * studio's timer, so a job of a killed runner is back in the queue within a second of its lease's
 * end whenever anyone polls.
 */
export async function reapExpiredLeases(store: Store): Promise<number> {
  const changed = await expireLeases(store.db);
  for (const job of changed)
    await publishJobEvent(store, { type: "expired", job: { id: job.id, kind: job.kind, status: job.status } });
  return changed.length;
}

let lastReap = 0;
/** reapExpiredLeases, at most once a second in this process (claims call it on every poll). */
export async function reapExpiredLeasesThrottled(store: Store): Promise<void> {
  const now = Date.now();
  if (now - lastReap < 1_000) return;
  lastReap = now;
  await reapExpiredLeases(store);
}
