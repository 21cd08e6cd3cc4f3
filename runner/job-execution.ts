import fs from "node:fs";
import path from "node:path";
import { heartbeatHealth } from "@/lib/jobs/heartbeat-health";
import type { RunnerEvent } from "./log";
import type { FinalJobStatus } from "@/lib/jobs/states";
import type { ClaimedJob, Gpu } from "@/lib/runner/protocol";
import type { JobBackend } from "./backends/job-backend";
import { runsWholeJobs } from "./backends/whole-job-backend";
import { watchForCancel } from "./cancel-watch";
import { gpuLabel } from "./capabilities";
import { jobLimits, spawnLimits } from "./job-limits";
import { openJobStorage, type JobStorage } from "./job-storage";
import { LogStream } from "./log-stream";
import { buildOutputsArchive } from "./outputs-archive";
import { reproduce } from "./reproduce";
import { safeExtract } from "./safe-extract";
import { StaleLeaseError, type StudioClient } from "./studio-client";

export interface JobExecutionContext {
  client: StudioClient;
  backend: JobBackend;
  claimed: ClaimedJob;
  workDir: string;
  runnerName: string;
  /** This runner's GPUs (the job's are picked from them by `claimed.job.gpuIndices`). */
  gpus: Gpu[];
  killGraceMs: number;
  /** The job's whole log, and each run's reproduce.log, are cut here (`--max-log-bytes`). */
  maxLogBytes?: number;
  /** Resolves when the runner is shutting down: the job is stopped and left to requeue. */
  shutdown: Promise<void>;
  /** One line per event on the runner's log, with fields of its own (the job's and lease's ids are bound by the caller). */
  event: RunnerEvent;
}

export type JobExecutionResult =
  | { outcome: "completed"; status: FinalJobStatus; exitCode: number | null; reason: string | null }
  | { outcome: "abandoned"; reason: string };

/**
 * One claimed job from start to end: heartbeats and the wait-cancel long poll (a cancel is heard
 * the moment staff press it) from the first moment, the submission downloaded and extracted, the
 * reproduction with its live log, the outputs uploaded, then the completion. A stale lease anywhere stops the job's processes and abandons it,
 * never completing: the job belongs to someone else now. A runner shutting down abandons its jobs
 * the same way, so they requeue when their lease expires rather than end as failed.
 */
export async function executeJob(ctx: JobExecutionContext): Promise<JobExecutionResult> {
  const { claimed, client } = ctx;
  const { job } = claimed;
  const jobDir = path.join(ctx.workDir, "jobs", `${job.id}-${job.attempt}`);
  let cancelRequested = false;
  let abandonReason: string | null = null;
  let stopJob!: () => void;
  const stopped = new Promise<void>((resolve) => (stopJob = resolve));
  const abandon = (reason: string) => {
    abandonReason ??= reason;
    stopJob();
  };
  void ctx.shutdown.then(() => abandon("the runner is shutting down; the job goes back to the queue"));

  const onCancel = () => {
    if (cancelRequested) return;
    cancelRequested = true;
    ctx.event(`cancel requested for job ${job.id}`);
    stopJob();
  };
  const stopWatchingCancel = watchForCancel({
    client,
    claimed,
    onCancel,
    onStaleLease: (err) => abandon(`lease lost: ${err.message}`),
    onUnavailable: (err) => ctx.event(`job ${job.id}: cancel is heard at the next heartbeat only (${err.message})`),
  });
  const health = heartbeatHealth(job.id, claimed.lease.leaseS);
  const heartbeats = setInterval(() => {
    client.heartbeat(claimed).then(
      (answer) => {
        health.succeeded();
        if (answer.cancel) onCancel();
      },
      (err) => {
        if (err instanceof StaleLeaseError) abandon(`lease lost: ${err.message}`);
        // Anything else was already retried: the next beat tries again, and the lease tells who is
        // right. It is logged with the time since the last success, which says how near the lease's end is.
        else {
          const f = health.failure(err);
          ctx.event(f.message, {
            failuresInARow: f.failuresInARow,
            sinceLastSuccessS: f.sinceLastSuccessS,
            leaseS: f.leaseS,
            error: f.error,
          });
        }
      },
    );
  }, claimed.lease.heartbeatS * 1000);

  const logs = new LogStream({
    send: (chunks) => client.sendLogs(claimed, chunks),
    maxLogBytes: ctx.maxLogBytes,
    isFatal: (err) => err instanceof StaleLeaseError,
    onFatal: (err) => abandon(`lease lost: ${(err as Error).message}`),
  });
  const note = (text: string) => logs.write(`[runner] ${text}\n`);
  let storage: Promise<JobStorage> | null = null;

  try {
    fs.rmSync(jobDir, { recursive: true, force: true });
    fs.mkdirSync(jobDir, { recursive: true });
    // The job's copy, /tmp and HOME on a filesystem of the paper's disk limit, made while the
    // submission downloads (closed in `finally`).
    const diskMiB = jobLimits(job.settings).diskMiB;
    storage = openJobStorage({ jobDir, diskLimitMiB: diskMiB });
    // Handled here so it counts as handled while the download runs; its error surfaces at the await below.
    storage.catch(() => undefined);
    let sourceRoot: string;
    try {
      const archive = path.join(jobDir, "submission.archive");
      await client.downloadSubmission(claimed, archive);
      sourceRoot = await safeExtract(archive, path.join(jobDir, "source"));
    } catch (err) {
      if (err instanceof StaleLeaseError) abandon(`lease lost: ${err.message}`);
      if (abandonReason) return { outcome: "abandoned", reason: abandonReason };
      const reason = `the submission could not be prepared: ${(err as Error).message}`;
      note(reason);
      return await finish({
        status: "failed",
        exitCode: null,
        reason,
        metadata: null,
        outputsUploaded: false,
        durationS: null,
      });
    }
    const disk = await storage;
    if (disk.unenforced) note(`the disk limit (${diskMiB} MiB) is not enforced: ${disk.unenforced}`);
    for (const line of ctx.backend.notices({ network: job.settings.network, limits: spawnLimits(job.settings) }))
      note(line);
    const runOptions = {
      jobDir: disk.root,
      sourceRoot,
      settings: job.settings,
      gpuIndices: job.gpuIndices,
      gpuNames: ctx.gpus.filter((g) => job.gpuIndices.includes(g.index)).map(gpuLabel),
      runnerName: ctx.runnerName,
      attempt: job.attempt,
      spawnName: `${job.id}-${job.attempt}`,
      output: (text: string) => logs.write(text),
      cancelled: stopped,
      killGraceMs: ctx.killGraceMs,
      maxLogBytes: ctx.maxLogBytes,
    };
    // A backend that runs the whole job elsewhere (kubernetes: its own pod) does PaperBench's steps there.
    const result = runsWholeJobs(ctx.backend)
      ? await ctx.backend.reproduceJob({
          ...runOptions,
          claimed,
          shutdown: ctx.shutdown,
          limits: spawnLimits(job.settings),
          diskMiB,
        })
      : await reproduce({ ...runOptions, backend: ctx.backend, diskLimitMiB: disk.unenforced ? undefined : diskMiB });
    if (abandonReason || !result) return { outcome: "abandoned", reason: abandonReason ?? "the job was left running" };

    if (!result.ran) {
      // Nothing of reproduce.sh ran (the backend could not set it up): no executed submission to judge.
      return await finish({
        status: result.status,
        exitCode: result.exitCode,
        reason: result.reason,
        metadata: result.metadata,
        outputsUploaded: false,
        durationS: result.durationS,
      });
    }
    const outputsFile = path.join(jobDir, "outputs.tar.gz");
    const outputs = await buildOutputsArchive(result.submissionDir, outputsFile, {
      maxFileBytes: job.settings.maxOutputFileBytes,
      secrets: Object.values(job.settings.secrets),
    });
    for (const left of outputs.leftOut) note(`left out of the outputs: ${left.path} (${left.reason})`);
    for (const masked of outputs.masked) note(`a secret's value was masked in the outputs' ${masked}`);
    await client.uploadOutputs(claimed, outputsFile);
    return await finish({
      status: result.status,
      exitCode: result.exitCode,
      reason: result.reason,
      metadata: result.metadata,
      outputsUploaded: true,
      durationS: result.durationS,
    });
  } catch (err) {
    if (err instanceof StaleLeaseError || abandonReason)
      return { outcome: "abandoned", reason: abandonReason ?? `lease lost: ${(err as Error).message}` };
    throw err;
  } finally {
    stopWatchingCancel();
    clearInterval(heartbeats);
    logs.stop();
    (await storage?.catch(() => null))?.close();
    fs.rmSync(jobDir, { recursive: true, force: true });
  }

  async function finish(body: Parameters<StudioClient["complete"]>[1]): Promise<JobExecutionResult> {
    // The log goes first, so a finished job's log is whole; a studio that cannot take it in time does not hold the completion back.
    await Promise.race([logs.flush(), new Promise((r) => setTimeout(r, 15_000))]);
    if (abandonReason) return { outcome: "abandoned", reason: abandonReason };
    await client.complete(claimed, body);
    return { outcome: "completed", status: body.status, exitCode: body.exitCode, reason: body.reason };
  }
}
