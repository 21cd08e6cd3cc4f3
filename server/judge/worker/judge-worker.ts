import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Store } from "@/db/client";
import { log as studioLog } from "@/server/observability/log";
import { setGradingJudgeFinished } from "@/db/queries/gradings";
import { claimQueuedJob, finishJobUnderLease, getJobById, renewLease } from "@/db/queries/jobs";
import { listJudgeRunUsagesByGradingId, markJudgeRunFinished } from "@/db/queries/judge-runs";
import type { Job } from "@/db/schema";
import { heartbeatHealth } from "@/lib/jobs/heartbeat-health";
import type { FinalJobStatus } from "@/lib/jobs/states";
import { mergeUsage, type ModelUsage } from "@/lib/judge/engine/usage";
import { announceJobChanged, followJob, followQueue } from "@/server/jobs/job-feed";
import { afterJobChanged } from "@/server/evaluations/pipeline/job-events";
import { queueTimings } from "@/server/jobs/queue-config";
import { reapExpiredLeasesThrottled } from "@/server/jobs/reap-expired-leases";
import { judgeRunOfJob, runJudgeJob } from "./judge-job";
import { LostLease } from "./store-judge-verdict";

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

/** Between two looks at the queue when nothing was announced (a job requeued by another process's reaper). */
const IDLE_RECHECK_MS = 1_000;

/** Why a job's run stopped before its end. */
type StopReason = "cancelled" | "lost" | "stopped";

/**
 * The studio's judge worker: claims `judge` jobs from the queue under a lease (renewed by
 * heartbeats, fenced on every write), grades each run's missing leaves, and ends the job. A cancel
 * (heard on the job's live topic or the next heartbeat) aborts the calls in flight and starts no
 * other; `stop()` leaves its jobs to their leases, so another worker resumes them with only the
 * leaves still missing. One per process: inside the studio with PGlite, `npm run worker` on PostgreSQL.
 */
export function startJudgeWorker(store: Store, opts: JudgeWorkerOptions = {}): { stop(): Promise<void> } {
  const maxRuns = Math.max(1, opts.maxRuns ?? 2);
  const name = opts.name ?? `judge-worker ${os.hostname()}:${process.pid}`;
  const env = opts.env ?? process.env;
  const log = opts.log ?? ((line: string) => studioLog.info({ worker: "judge" }, line));
  const active = new Map<
    string,
    { controller: AbortController; reason: { value: StopReason | null }; done: Promise<void> }
  >();
  let stopping = false;
  let wake: (() => void) | null = null;

  const loop = (async () => {
    const unfollow = await followQueue("judge", () => wake?.(), { databaseUrl: opts.databaseUrl });
    try {
      while (!stopping) {
        let claimed: { job: Job; leaseId: string } | null = null;
        if (active.size < maxRuns) {
          try {
            await reapExpiredLeasesThrottled(store);
            const leaseId = randomUUID();
            const job = await store.db.transaction((tx) =>
              claimQueuedJob(tx, {
                kind: "judge",
                runnerId: null,
                runnerName: name,
                freeGpus: [],
                leaseId,
                leaseS: queueTimings().leaseS,
              }),
            );
            if (job) claimed = { job, leaseId };
          } catch (err) {
            log(`Judge worker: claiming failed: ${err instanceof Error ? err.message : err}`);
          }
        }
        if (claimed && !stopping) {
          startRun(claimed.job, claimed.leaseId);
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, IDLE_RECHECK_MS);
          wake = done;
          function done() {
            clearTimeout(timer);
            wake = null;
            resolve();
          }
        });
      }
    } finally {
      unfollow();
    }
  })();

  function startRun(job: Job, leaseId: string): void {
    const controller = new AbortController();
    const reason: { value: StopReason | null } = { value: null };
    const stopWith = (why: StopReason) => {
      reason.value ??= why;
      controller.abort(new Error(why));
    };
    const done = (async () => {
      await announceJobChanged(store, job.id);
      await afterJobChanged(store, job.id);
      const { heartbeatS, leaseS } = queueTimings();
      const health = heartbeatHealth(job.id, leaseS);
      const heartbeat = setInterval(() => {
        renewLease(store.db, job.id, leaseId, leaseS).then(
          (renewed) => {
            if (!renewed) return stopWith("lost");
            health.succeeded();
            if (renewed.cancelRequested) stopWith("cancelled");
          },
          // The next beat tries again; the line says how near the lease's end is.
          (err) => log(`Judge worker: ${health.failed(err)}`),
        );
      }, heartbeatS * 1000);
      // A cancel is heard at once on the job's topic, not only at the next heartbeat.
      const unfollow = await followJob(
        job.id,
        () => {
          getJobById(store.db, job.id).then(
            (j) => j?.cancelRequestedAt && stopWith("cancelled"),
            () => undefined,
          );
        },
        { databaseUrl: opts.databaseUrl },
      );
      try {
        const current = await getJobById(store.db, job.id);
        if (current?.cancelRequestedAt) stopWith("cancelled");
        let end: { status: FinalJobStatus; reason: string | null } | null = null;
        let unitsLeft = 0;
        try {
          ({ unitsLeft } = await untilAborted(runJudgeJob(store, job, leaseId, controller, env), controller.signal));
        } catch (err) {
          if (err instanceof LostLease) reason.value ??= "lost";
          else if (!controller.signal.aborted)
            end = { status: "failed", reason: err instanceof Error ? err.message : String(err) };
        }
        if (!end) {
          if (reason.value === "cancelled")
            end = { status: "cancelled", reason: "Cancelled; the verdicts stored before stay" };
          else if (reason.value === null && unitsLeft <= 0) end = { status: "succeeded", reason: null };
          else if (reason.value === null) end = { status: "failed", reason: `${unitsLeft} leaves were left ungraded` };
        }
        // Lost or stopped: the job stays to its lease, and its next holder resumes it.
        if (!end) return;
        // The job, its run and its grading end in one transaction: no reader sees a succeeded run
        // whose grading is not finished yet.
        const final = end;
        const ended = await store.db.transaction(async (tx) => {
          if (
            !(await finishJobUnderLease(tx, job.id, leaseId, {
              status: final.status,
              exitCode: null,
              reason: final.reason,
              result: {},
            }))
          )
            return false;
          const run = await judgeRunOfJob({ ...store, db: tx }, job);
          if (run) {
            await markJudgeRunFinished(tx, run.id);
            // The grading's tokens are every run's on it (a re-grade of the leaves a rubric change touched is a run of its own).
            if (final.status === "succeeded") {
              const usages = (await listJudgeRunUsagesByGradingId(tx, run.gradingId)) as Record<string, ModelUsage>[];
              await setGradingJudgeFinished(tx, run.gradingId, usages.reduce(mergeUsage, {}));
            }
          }
          return true;
        });
        if (ended) log(`Judge worker: job ${job.id} ${end.status}${end.reason ? ` (${end.reason})` : ""}`);
      } catch (err) {
        log(`Judge worker: job ${job.id} could not be ended: ${err instanceof Error ? err.message : err}`);
      } finally {
        clearInterval(heartbeat);
        unfollow();
        active.delete(job.id);
        await announceJobChanged(store, job.id).catch(() => undefined);
        // The run's grading is complete (or it ended): its evaluation cell takes its next step.
        await afterJobChanged(store, job.id);
        wake?.();
      }
    })();
    active.set(job.id, { controller, reason, done });
  }

  return {
    async stop() {
      stopping = true;
      for (const { controller, reason } of active.values()) {
        reason.value ??= "stopped";
        controller.abort(new Error("stopped"));
      }
      wake?.();
      await loop;
      await Promise.all([...active.values()].map((a) => a.done));
    },
  };
}

/**
 * The run's result, or (once the signal aborts) at once: the engine starts nothing new after an
 * abort, and a call still in flight may finish on its own (its verdict is stored, fenced by the lease).
 */
function untilAborted<T extends { unitsLeft: number }>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
