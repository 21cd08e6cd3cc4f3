import fs from "node:fs";
import type { ClaimedJob, Gpu, RunnerBackend } from "@/lib/runner/protocol";
import { bwrapAvailable } from "./backends/sandbox";
import { selectBackend } from "./backends/select-backend";
import { releaseJobMounts } from "./job-storage";
import { detectGpus, machineCapabilities } from "./capabilities";
import type { KubernetesRunnerOptions, RunnerOptions } from "./cli-options";
import { executeJob } from "./job-execution";
import { createRunnerLogger, loggedEvents, type RunnerEvent } from "./log";
import { StaleLeaseError, StudioClient, StudioError } from "./studio-client";
import type { JobBackend } from "./backends/job-backend";
import { runsWholeJobs } from "./backends/whole-job-backend";
import { kubernetesGpus } from "./backends/kubernetes";

export interface StartRunnerOptions extends Omit<RunnerOptions, "maxLogBytes" | "kubernetes"> {
  /** The kubernetes backend's settings (`--k8s-*`). */
  kubernetes?: KubernetesRunnerOptions;
  /** A job's whole log is cut here (default 1 GiB). */
  maxLogBytes?: number;
  /** SIGTERM → this grace → SIGKILL when a job is cancelled, times out or the runner stops (10 s). */
  killGraceMs?: number;
  /** How long one claim waits for a job (the protocol's long poll, at most 30 s). */
  claimWaitS?: number;
  /** One line per event (registered, claimed, finished) with the ids it is about; never a token or a secret. Default: JSON log lines. */
  event?: RunnerEvent;
}

export interface RunningRunner {
  runnerId: string;
  backend: RunnerBackend;
  maxJobs: number;
  /** Stops claiming, stops the running jobs (left to requeue) and resolves once all are gone. */
  stop(): Promise<void>;
  /** Resolves when the runner has stopped (after `stop()`, or on a fatal refusal such as a revoked token). */
  done: Promise<void>;
}

/** The backend a runner uses when none is named: the sandbox wherever bubblewrap is installed. */
export function defaultBackend(): RunnerBackend {
  return bwrapAvailable() ? "sandbox" : "local";
}

/**
 * A runner: registers with its capabilities, then long-polls for jobs while it has a free slot,
 * runs up to `maxJobs` at once, each on the GPUs the claim assigned it.
 */
export async function startRunner(opts: StartRunnerOptions): Promise<RunningRunner> {
  const event = opts.event ?? loggedEvents(createRunnerLogger({ runnerName: opts.name }));
  const backendName = opts.backend ?? defaultBackend();
  // A Kubernetes controller has no GPUs of its own: it offers the studio the GPUs it may ask the cluster for.
  const gpus: Gpu[] = backendName === "kubernetes" ? kubernetesGpus(opts.kubernetes?.gpus ?? 0) : await detectGpus();
  if (opts.backend === null)
    event(
      `backend: ${backendName} (${backendName === "sandbox" ? "bwrap found" : "bwrap not installed: jobs run as plain processes"})`,
    );
  const backend = selectBackend(backendName, {
    dockerImage: opts.dockerImage,
    kubernetes: opts.kubernetes && { ...opts.kubernetes, runnerName: opts.name },
  });
  const maxJobs = opts.maxJobs ?? Math.max(1, gpus.length);
  fs.mkdirSync(opts.workDir, { recursive: true });
  // Job disks a killed runner left mounted here: their jobs went back to the queue with the lease.
  releaseJobMounts(opts.workDir);
  const client = new StudioClient({ url: opts.url, runnerToken: opts.token });
  const capabilities = machineCapabilities(gpus, backendName, maxJobs, process.env.npm_package_version);
  const runnerId = await registerUntilAnswered(client, { name: opts.name, capabilities }, event);
  // From here on every line carries the runner's id.
  const say: RunnerEvent = (line, fields) => event(line, { runnerId, ...fields });
  say(
    `registered as ${opts.name} (runner ${runnerId}): ${gpus.length} GPU(s), ${capabilities.cpus} CPU(s), backend ${backendName}, up to ${maxJobs} job(s) at once`,
  );

  const running = new Map<string, Promise<void>>();
  const gpusInUse = new Set<number>();
  let stopping = false;
  let stopShutdown!: () => void;
  const shutdown = new Promise<void>((resolve) => (stopShutdown = resolve));
  const claimAbort = new AbortController();
  let slotFreed: (() => void) | null = null;

  function launch(claimed: ClaimedJob): void {
    const { job } = claimed;
    const ids = { jobId: job.id, leaseId: claimed.lease.id };
    for (const index of job.gpuIndices) gpusInUse.add(index);
    say(
      `claimed job ${job.id} (attempt ${job.attempt}${job.gpuIndices.length ? `, GPUs ${job.gpuIndices.join(",")}` : ""})`,
      ids,
    );
    const run = executeJob({
      client,
      backend,
      claimed,
      workDir: opts.workDir,
      runnerName: opts.name,
      gpus,
      killGraceMs: opts.killGraceMs ?? 10_000,
      maxLogBytes: opts.maxLogBytes,
      shutdown,
      event: (line, fields) => say(line, { ...ids, ...fields }),
    })
      .then(
        async (result) => {
          if (result.outcome === "completed") {
            say(
              `finished job ${job.id}: ${result.status}${result.exitCode !== null ? `, exit code ${result.exitCode}` : ""}${result.reason ? ` (${result.reason})` : ""}`,
              ids,
            );
            return;
          }
          say(`abandoned job ${job.id}: ${result.reason}`, ids);
          // Stopping (a scale-down, a reboot): hand the job back so it runs elsewhere now, not after its lease.
          // A backend whose jobs run elsewhere (kubernetes) leaves them running, leases held: the next runner re-adopts them.
          if (stopping && !runsWholeJobs(backend)) {
            await client.release(claimed, `the runner ${opts.name} was stopped`).then(
              () => say(`released job ${job.id} to the queue`, ids),
              (err: Error) =>
                say(`could not release job ${job.id} (${err.message}); it is requeued when its lease expires`, ids),
            );
          }
        },
        (err: Error) => say(`job ${job.id} ended with a runner error: ${err.message}`, ids),
      )
      .finally(() => {
        for (const index of job.gpuIndices) gpusInUse.delete(index);
        running.delete(job.id);
        slotFreed?.();
      });
    running.set(job.id, run);
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      const freeSlots = maxJobs - running.size;
      if (freeSlots <= 0) {
        await new Promise<void>((resolve) => (slotFreed = resolve));
        slotFreed = null;
        continue;
      }
      try {
        const freeGpus = gpus.map((g) => g.index).filter((i) => !gpusInUse.has(i));
        const claimed = await client.claim(
          { runnerId, freeGpus, freeSlots, waitS: opts.claimWaitS ?? 30 },
          claimAbort.signal,
        );
        if (claimed && stopping) {
          // Claimed just as the runner was told to stop: hand it straight back.
          await client.release(claimed, `the runner ${opts.name} was stopped`).catch(() => undefined);
        } else if (claimed) launch(claimed);
      } catch (err) {
        if (stopping) break;
        if (err instanceof StudioError && (err.status === 401 || err.status === 403)) {
          say(`the studio refused this runner: ${err.message}; stopping`);
          stopping = true;
          break;
        }
        say(`claim failed: ${(err as Error).message}; trying again`);
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    stopShutdown();
    await Promise.all(running.values());
  }

  await adoptLeftJobs(backend, client, say, launch);
  const done = loop();
  return {
    runnerId,
    backend: backendName,
    maxJobs,
    async stop() {
      stopping = true;
      claimAbort.abort();
      slotFreed?.();
      await done;
    },
    done,
  };
}

/**
 * A restarted runner's jobs that still run (kubernetes: their pods): each one whose lease the studio
 * still renews is followed again as if just claimed; the others are removed.
 */
async function adoptLeftJobs(
  backend: JobBackend,
  client: StudioClient,
  say: RunnerEvent,
  launch: (claimed: ClaimedJob) => void,
): Promise<void> {
  if (!runsWholeJobs(backend)) return;
  let left: ClaimedJob[];
  try {
    left = await backend.adoptable();
  } catch (err) {
    say(`could not list the jobs a previous run of this runner left: ${(err as Error).message}`);
    return;
  }
  for (const claimed of left) {
    const ids = { jobId: claimed.job.id, leaseId: claimed.lease.id };
    try {
      await client.heartbeat(claimed);
    } catch (err) {
      if (
        err instanceof StaleLeaseError ||
        (err instanceof StudioError && (err.status === 401 || err.status === 403))
      ) {
        say(
          `job ${claimed.job.id} left by a previous run is no longer ours (${(err as Error).message}): removing it`,
          ids,
        );
        await backend.discard(claimed).catch(() => undefined);
        continue;
      }
    }
    say(`re-adopting job ${claimed.job.id} left running by a previous run of this runner`, ids);
    launch(claimed);
  }
}

async function registerUntilAnswered(
  client: StudioClient,
  body: Parameters<StudioClient["register"]>[0],
  event: RunnerEvent,
): Promise<string> {
  for (;;) {
    try {
      return await client.register(body);
    } catch (err) {
      // A refusal (bad token, bad request) will not mend; a studio still starting will.
      if (err instanceof StudioError && err.status < 500) throw err;
      event(`the studio is not answering (${(err as Error).message}); retrying`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
