import "server-only";
import type { Store } from "@/db/client";
import { sweepEvaluationCells } from "@/server/evaluations/pipeline/sweep-cells";
import { log } from "@/server/observability/log";
import { reapExpiredLeases } from "./reap-expired-leases";

const REAP_EVERY_MS = 2_000;

/**
 * The studio's own pass over the queue: jobs whose runner died are requeued (or failed) within
 * seconds of their lease's end even when no runner is polling (claims reap too), and evaluation
 * cells whose event was missed take their step. Every instance runs it; SKIP LOCKED keeps two from
 * touching one job, a cell's row lock two from taking one step.
 */
export function startQueueUpkeep(store: Store): void {
  const timer = setInterval(() => {
    reapExpiredLeases(store)
      .catch((err: unknown) => log.error({ err }, "requeueing expired jobs failed"))
      .then(() => sweepEvaluationCells(store))
      .catch((err: unknown) => log.error({ err }, "advancing evaluation cells failed"));
  }, REAP_EVERY_MS);
  timer.unref();
}
