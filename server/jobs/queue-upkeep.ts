import "server-only";
import type { Store } from "@/db/client";
import { reapExpiredLeases } from "./reap-expired-leases";

const REAP_EVERY_MS = 2_000;

/**
 * The studio's own pass over the queue: jobs whose runner died are requeued (or failed) within
 * seconds of their lease's end even when no runner is polling (claims reap too). Every instance
 * runs it; SKIP LOCKED keeps two from touching one job.
 */
export function startQueueUpkeep(store: Store): void {
  const timer = setInterval(() => {
    reapExpiredLeases(store).catch((err: unknown) => console.error("Rubric Studio: requeueing expired jobs failed:", err instanceof Error ? err.message : err));
  }, REAP_EVERY_MS);
  timer.unref();
}
