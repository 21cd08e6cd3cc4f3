import "server-only";
import { log as studioLog } from "@/server/observability/log";
import os from "node:os";
import type { Store } from "@/db/client";
import { getJobById } from "@/db/queries/jobs";
import type { Job } from "@/db/schema";
import { heartbeatHealth } from "@/lib/jobs/heartbeat-health";
import type { FinalJobStatus, JobKind } from "@/lib/jobs/states";
import { claimableJobKind, type JobHandler } from "./job-kinds";
import { claimJob, finishJob, LeaseLost, renewJobLease, reportLeaseLost } from "./job-lifecycle";
import { queueTimings } from "./queue-config";

/** Cross-process wake-ups (the live feed's NOTIFY on PostgreSQL), handed in by whoever starts the worker. */
export interface WorkerWakeups {
  /** A job of the kind was queued (on any instance). */
  queue(kind: JobKind, listener: () => void): Promise<() => void>;
  /**
   * A cancel of the job was asked for (on any instance). Only cancels: the job's own topic hears
   * every progress report of its run, and re-reading the job on each cost a query per verdict batch.
   */
  cancel(jobId: string, listener: () => void): Promise<() => void>;
}

export interface JobWorkerOptions {
  kind: JobKind;
  /**
   * Jobs run at once. A job in its last wave (`lastWave()`) no longer counts: the next one starts
   * beside it, up to twice this many in all. One more may be claimed ahead while a job nears its end
   * (`nearEnd()`): it prepares, and waits at `mayStart()` until a job reaches its last wave.
   */
  maxRuns?: number;
  /** How the worker names itself in a job's attempts. */
  name?: string;
  /** Where the handler reads API keys (the process's environment). */
  env?: Record<string, string | undefined>;
  /** Without them a queued job is seen within a second, a cancel at the next heartbeat. */
  wakeups?: WorkerWakeups;
  log?: (line: string) => void;
}

/** Between two looks at the queue when nothing was announced (a job requeued by another process's reaper). */
const IDLE_RECHECK_MS = 1_000;

/** Why a job's run stopped before its end. */
type StopReason = "cancelled" | "lost" | "stopped";

/** Claimed ahead and preparing; doing its work; or with all its work in flight (its last wave). */
type RunPhase = "waiting" | "working" | "lastWave";

interface ActiveRun {
  controller: AbortController;
  reason: { value: StopReason | null };
  done: Promise<void>;
  phase: RunPhase;
  /** The job said it nears its end: one job may be claimed ahead of it. */
  nearEnd: boolean;
  /** Lets a job claimed ahead start its work. */
  admit: () => void;
}

/**
 * A worker for a kind claimed by workers: claims its jobs under a lease (renewed by heartbeats,
 * fenced on every write), runs the kind's handler, and ends the job. A cancel (heard through the
 * wake-up or the next heartbeat) aborts the handler, which starts nothing new; `stop()` leaves its
 * jobs to their leases, so another worker resumes them.
 */
export function startJobWorker(store: Store, opts: JobWorkerOptions): { stop(): Promise<void> } {
  const handler = claimableJobKind(opts.kind, "worker").handler as JobHandler<unknown>;
  const spec = claimableJobKind(opts.kind, "worker").spec;
  const maxRuns = Math.max(1, opts.maxRuns ?? 2);
  const name = opts.name ?? `${opts.kind}-worker ${os.hostname()}:${process.pid}`;
  const env = opts.env ?? process.env;
  const log = opts.log ?? ((line: string) => studioLog.info({ worker: opts.kind }, line));
  const label = `${opts.kind[0].toUpperCase()}${opts.kind.slice(1)} worker`;
  const active = new Map<string, ActiveRun>();
  const inPhase = (phase: RunPhase) => [...active.values()].filter((a) => a.phase === phase).length;
  /**
   * Room for another job: fewer than maxRuns working (or admitted and waiting) and the stragglers of
   * others within bounds; or, once a working job nears its end and none waits yet, room for one
   * claimed ahead, to prepare while that one finishes.
   */
  /** A job claimed now may start its work at once (else it was claimed ahead, and waits). */
  const roomToWork = () => inPhase("working") + inPhase("waiting") < maxRuns;
  const hasRoom = () =>
    (roomToWork() && active.size < 2 * maxRuns) ||
    (inPhase("waiting") === 0 &&
      [...active.values()].some((a) => a.phase === "working" && a.nearEnd) &&
      active.size < 2 * maxRuns + 1);
  /** Jobs claimed ahead start their work, oldest first, while fewer than maxRuns work. */
  const admitWaiting = () => {
    for (const entry of active.values()) {
      if (inPhase("working") >= maxRuns) return;
      if (entry.phase !== "waiting") continue;
      entry.phase = "working";
      entry.admit();
    }
  };
  let stopping = false;
  let wake: (() => void) | null = null;

  const loop = (async () => {
    const unfollow = (await opts.wakeups?.queue(opts.kind, () => wake?.())) ?? (() => undefined);
    try {
      while (!stopping) {
        let claimed: { job: Job; leaseId: string } | null = null;
        if (hasRoom()) {
          try {
            claimed = await claimJob(store, {
              kind: opts.kind,
              by: "worker",
              runnerId: null,
              runnerName: name,
              freeGpus: [],
            });
          } catch (err) {
            log(`${label}: claiming failed: ${err instanceof Error ? err.message : err}`);
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
    const lease = { jobId: job.id, leaseId };
    // Claimed with room to work at once, or ahead of a job nearing its end (then it waits to be admitted).
    const phase: RunPhase = roomToWork() ? "working" : "waiting";
    let admit!: () => void;
    const admitted = new Promise<void>((resolve) => (admit = resolve));
    if (phase === "working") admit();
    // A job stopped while it waits goes on at once, to see its signal and start nothing.
    controller.signal.addEventListener("abort", () => admit(), { once: true });
    const lastWave = () => {
      const entry = active.get(job.id);
      if (!entry || entry.phase !== "working") return;
      entry.phase = "lastWave";
      admitWaiting();
      wake?.();
    };
    const nearEnd = () => {
      const entry = active.get(job.id);
      if (!entry || entry.nearEnd) return;
      entry.nearEnd = true;
      wake?.();
    };
    const done = (async () => {
      const { heartbeatS, leaseS } = queueTimings();
      const health = heartbeatHealth(job.id, leaseS);
      const heartbeat = setInterval(() => {
        renewJobLease(store, lease).then(
          (renewed) => {
            if (!renewed) return stopWith("lost");
            health.succeeded();
            if (renewed.cancelRequested) stopWith("cancelled");
          },
          // The next beat tries again; the line says how near the lease's end is.
          (err) => log(`${label}: ${health.failed(err)}`),
        );
      }, heartbeatS * 1000);
      // A cancel is heard at once through the wake-up, not only at the next heartbeat.
      const unfollow =
        (await opts.wakeups?.cancel(job.id, () => {
          getJobById(store.db, job.id).then(
            (j) => j?.cancelRequestedAt && stopWith("cancelled"),
            () => undefined,
          );
        })) ?? (() => undefined);
      try {
        const current = await getJobById(store.db, job.id);
        if (current?.cancelRequestedAt) stopWith("cancelled");
        let end: { status: FinalJobStatus; reason: string | null } | null = null;
        let unitsLeft = 0;
        try {
          const payload = spec.payloadOf(job);
          ({ unitsLeft } = await untilAborted(
            handler.run({ store, job, payload, leaseId, controller, env, lastWave, nearEnd, mayStart: () => admitted }),
            controller.signal,
          ));
        } catch (err) {
          if (err instanceof LeaseLost) {
            if (reason.value === null) await reportLeaseLost(store, job.id);
            reason.value ??= "lost";
          } else if (!controller.signal.aborted)
            end = { status: "failed", reason: err instanceof Error ? err.message : String(err) };
        }
        if (!end) {
          if (reason.value === "cancelled") end = { status: "cancelled", reason: handler.cancelledReason };
          else if (reason.value === null && unitsLeft <= 0) end = { status: "succeeded", reason: null };
          else if (reason.value === null) end = { status: "failed", reason: handler.describeLeft(unitsLeft) };
        }
        // Lost or stopped: the job stays to its lease, and its next holder resumes it.
        if (!end) return;
        const final = end;
        const ended = await finishJob(store, lease, {
          end: () => ({ status: final.status, exitCode: null, reason: final.reason, result: {} }),
          onEnd: handler.onEnd && ((tx, endedJob) => handler.onEnd!(tx, endedJob, spec.payloadOf(endedJob))),
        });
        if (ended) log(`${label}: job ${job.id} ${end.status}${end.reason ? ` (${end.reason})` : ""}`);
        else await reportLeaseLost(store, job.id);
      } catch (err) {
        log(`${label}: job ${job.id} could not be ended: ${err instanceof Error ? err.message : err}`);
      } finally {
        clearInterval(heartbeat);
        unfollow();
        active.delete(job.id);
        admitWaiting();
        wake?.();
      }
    })();
    active.set(job.id, { controller, reason, done, phase, nearEnd: false, admit });
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
 * The run's result, or (once the signal aborts) at once: the handler starts nothing new after an
 * abort, and a write still in flight may finish on its own (fenced by the lease).
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
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
