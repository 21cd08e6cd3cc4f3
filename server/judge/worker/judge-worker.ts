import "server-only";
import os from "node:os";
import type { Store } from "@/db/client";
import { startJobWorker } from "@/server/jobs/job-worker";
import { followJobCancel, followQueue } from "@/server/live/job-feed";

export interface JudgeWorkerOptions {
  /** Runs graded at once (each makes up to its configuration's concurrent calls). */
  maxRuns?: number;
  /** How the worker names itself in a job's attempts. */
  name?: string;
  /** Where the API keys are read from (the process's environment). */
  env?: Record<string, string | undefined>;
  /** The PostgreSQL URL, so a job queued or cancelled by another process wakes this one at once. */
  databaseUrl?: string;
  log?: (line: string) => void;
}

/**
 * The studio's judge worker: the queue's job worker for `judge` jobs (`judgeJobHandler`): it claims
 * them under a lease, grades each run's missing leaves, and ends the job. A cancel (heard on the
 * job's live topic or the next heartbeat) aborts the calls in flight and starts no other; `stop()`
 * leaves its jobs to their leases, so another worker resumes them with only the leaves still
 * missing. One per process: inside the studio with PGlite, `npm run worker` on PostgreSQL.
 */
export function startJudgeWorker(store: Store, opts: JudgeWorkerOptions = {}): { stop(): Promise<void> } {
  const live = { databaseUrl: opts.databaseUrl };
  return startJobWorker(store, {
    kind: "judge",
    maxRuns: opts.maxRuns,
    name: opts.name ?? `judge-worker ${os.hostname()}:${process.pid}`,
    env: opts.env,
    log: opts.log,
    wakeups: {
      queue: (kind, listener) => followQueue(kind, listener, live),
      cancel: (jobId, listener) => followJobCancel(jobId, listener, live),
    },
  });
}
