import "server-only";
import type { Store } from "@/db/client";
import { getLogTail, listJobAttempts } from "@/db/queries/jobs";
import { getRunnerById } from "@/db/queries/runners";
import type { Job } from "@/db/schema";
import type { JobView } from "@/lib/jobs/job-view";
import { describeReproductionEnd } from "@/lib/jobs/judge-source";
import type { OutputsIndex } from "@/lib/jobs/outputs-index";
import type { ReproductionMetadata } from "@/lib/jobs/reproduction-metadata";

interface StoredResult {
  outputs?: OutputsIndex;
  /** Jobs completed before the log left the completion still hold `repro_log` here: never answered. */
  metadata?: ReproductionMetadata & { repro_log?: string };
  durationS?: number | null;
}

/** The reproduction metadata a runner sent with the completion, without any log in it. */
export function storedMetadataOf(job: Job): ReproductionMetadata | null {
  const stored = (job.result as StoredResult | null)?.metadata;
  if (!stored) return null;
  const { repro_log: _log, ...metadata } = stored;
  return metadata;
}

/** The outputs index the completion stored (the runner's outputs archive, listed). */
export function storedOutputsOf(job: Job): OutputsIndex | null {
  return (job.result as StoredResult | null)?.outputs ?? null;
}

/** How a reproduce job ended, in words ("reproduce.sh exited 1 after 3 min", "timed out after 2 h"); null while it runs. */
export function reproductionEndOf(job: Job): string | null {
  const result = (job.result ?? {}) as StoredResult;
  const ran =
    result.metadata?.repro_execution_time ??
    result.durationS ??
    (job.startedAt && job.finishedAt ? (job.finishedAt.getTime() - job.startedAt.getTime()) / 1000 : null);
  return describeReproductionEnd({
    status: job.status,
    exitCode: job.exitCode,
    durationS: ran,
    timeoutS: job.timeoutS,
    reason: job.failureReason,
  });
}

/** A job with its attempts, outputs index and metadata, as pages and the CLI read it. */
export async function readJobView(store: Store, job: Job): Promise<JobView> {
  const [attempts, runner] = await Promise.all([
    listJobAttempts(store.db, job.id),
    job.runnerId ? getRunnerById(store.db, job.runnerId) : null,
  ]);
  const result = (job.result ?? {}) as StoredResult;
  const last = attempts.at(-1);
  const measured = result.durationS ?? null;
  const wall = job.finishedAt && last ? (job.finishedAt.getTime() - last.startedAt.getTime()) / 1000 : null;
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    paperId: job.paperId,
    submissionId: job.submissionId,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    gpusRequired: job.gpusRequired,
    gpuIndices: job.gpuIndices,
    timeoutS: job.timeoutS,
    runnerName: runner?.name ?? last?.runnerName ?? null,
    exitCode: job.exitCode,
    failureReason: job.failureReason,
    cancelRequested: job.cancelRequestedAt !== null,
    createdAt: job.createdAt.toISOString(),
    startedAt: last?.startedAt.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    durationS: measured ?? wall,
    outputs: job.outputsSha256 && result.outputs ? { ...result.outputs, sha256: job.outputsSha256 } : null,
    metadata: storedMetadataOf(job),
    attemptHistory: attempts.map((a) => ({
      attempt: a.attempt,
      runnerName: a.runnerName,
      gpuIndices: a.gpuIndices,
      status: a.status,
      exitCode: a.exitCode,
      reason: a.reason,
      startedAt: a.startedAt.toISOString(),
      finishedAt: a.finishedAt?.toISOString() ?? null,
    })),
  };
}

/** The last part of the job's current attempt's log (the CLI prints it). */
export function readJobLogTail(store: Store, job: Job, maxChars = 4_000): Promise<string> {
  return job.attempts > 0 ? getLogTail(store.db, job.id, job.attempts, maxChars) : Promise.resolve("");
}
