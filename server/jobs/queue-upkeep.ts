import "server-only";
import type { Store } from "@/db/client";
import { log } from "@/server/observability/log";
import { reapExpiredLeases } from "./reap-expired-leases";

const REAP_EVERY_MS = 2_000;

interface UpkeepTask {
  /** What it does, in the line logged when it fails ("advancing evaluation cells"). */
  name: string;
  run(store: Store): Promise<unknown>;
}

/** Kept on globalThis, like the job kinds: registered at start-up (`server/job-platform.ts`). */
const globalForUpkeep = globalThis as unknown as {
  __rubricQueueUpkeep?: UpkeepTask[];
  __rubricQueueUpkeepTimer?: ReturnType<typeof setInterval>;
};
function tasks(): UpkeepTask[] {
  globalForUpkeep.__rubricQueueUpkeep ??= [];
  return globalForUpkeep.__rubricQueueUpkeep;
}

/** A feature's catch-up for events it missed, run after each pass of the reaper (once per name). */
export function registerQueueUpkeep(name: string, run: UpkeepTask["run"]): void {
  const list = tasks();
  const at = list.findIndex((t) => t.name === name);
  if (at >= 0) list[at] = { name, run };
  else list.push({ name, run });
}

/**
 * The studio's own pass over the queue: jobs whose holder died are requeued (or failed) within
 * seconds of their lease's end even when no runner is polling (claims reap too), then each
 * registered task catches up (the evaluation sweep: cells whose event was missed take their step).
 * Every instance runs it; SKIP LOCKED keeps two from touching one job. One pass per process: a
 * second start (a test starting the studio again) replaces the first.
 */
export function startQueueUpkeep(store: Store): void {
  stopQueueUpkeep();
  const timer = setInterval(() => {
    void (async () => {
      for (const task of [{ name: "requeueing expired jobs", run: reapExpiredLeases }, ...tasks()]) {
        try {
          await task.run(store);
        } catch (err) {
          log.error({ err }, `${task.name} failed`);
        }
      }
    })();
  }, REAP_EVERY_MS);
  timer.unref();
  globalForUpkeep.__rubricQueueUpkeepTimer = timer;
}

/** Stops the pass (before its database closes: a pass on a closed database only logs failures). */
export function stopQueueUpkeep(): void {
  clearInterval(globalForUpkeep.__rubricQueueUpkeepTimer);
  globalForUpkeep.__rubricQueueUpkeepTimer = undefined;
}
