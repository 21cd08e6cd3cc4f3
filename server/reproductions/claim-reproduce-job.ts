import "server-only";
import type { Store } from "@/db/client";
import { getRunnerOfToken, touchRunner } from "@/db/queries/runners";
import type { Job, RunnerToken } from "@/db/schema";
import { MAX_OUTPUT_FILE_BYTES } from "@/lib/jobs/paper-settings";
import { AppError } from "@/lib/errors";
import type { ClaimRequest, ClaimedJob } from "@/lib/runner/protocol";
import { readServerEnv } from "@/lib/env";
import { readRunSettings } from "@/server/papers/run-settings";
import { readReproduceSecrets } from "@/server/papers/paper-secrets";
import { followQueue } from "@/server/live/job-feed";
import { claimJob, requeueJob } from "@/server/jobs/job-lifecycle";
import { issueJobToken } from "@/server/runners/job-token";
import { queueTimings } from "@/server/jobs/queue-config";
import { longPollPause } from "@/server/jobs/long-poll-pause";

/** Between two looks at the queue while nothing was announced (a requeue found by another process's reaper). */
const IDLE_RECHECK_MS = 1_000;

/**
 * A runner's long poll: the oldest queued reproduction it can run (enough free GPUs), under a new
 * lease, or null after `waitS` with none. Wakes at once when a job is queued on any instance.
 */
export async function claimReproduceJob(
  store: Store,
  token: RunnerToken,
  claim: ClaimRequest,
  signal?: AbortSignal,
): Promise<ClaimedJob | null> {
  const runner = await getRunnerOfToken(store.db, claim.runnerId, token.id);
  if (!runner) throw new AppError("not_found", "No runner with that id was registered with this token: register again");
  await touchRunner(store.db, runner.id);
  if (claim.freeSlots === 0) return null;
  const timings = queueTimings();
  const deadline = Date.now() + claim.waitS * 1000;
  let wake: (() => void) | null = null;
  const unfollow = await followQueue("reproduce", () => wake?.(), { databaseUrl: readServerEnv().DATABASE_URL });
  try {
    for (;;) {
      const claimed = await claimJob(store, {
        kind: "reproduce",
        by: "runner",
        runnerId: runner.id,
        runnerName: runner.name,
        freeGpus: claim.freeGpus,
      });
      if (claimed) {
        // The runner hung up while its claim was being made (it is stopping), or the studio began to
        // stop: the job goes straight back to the queue rather than waiting out a lease nobody holds.
        if (signal?.aborted) {
          await requeueJob(
            store,
            { jobId: claimed.job.id, leaseId: claimed.leaseId },
            "the claim ended before the runner received the job (the runner hung up or the studio is stopping)",
          );
          return null;
        }
        return await claimedJob(store, claimed.job, claimed.leaseId, token.id, timings);
      }
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return null;
      await longPollPause(Math.min(left, IDLE_RECHECK_MS), signal, (w) => (wake = w));
    }
  } finally {
    unfollow();
  }
}

async function claimedJob(
  store: Store,
  job: Job,
  leaseId: string,
  runnerTokenId: string,
  timings: { leaseS: number; heartbeatS: number },
): Promise<ClaimedJob> {
  const settings = await readRunSettings(store.db, job.paperId);
  const secrets = await readReproduceSecrets(store.db, job.paperId);
  return {
    job: {
      id: job.id,
      kind: "reproduce",
      attempt: job.attempts,
      submissionId: job.submissionId!,
      paperId: job.paperId,
      gpuIndices: job.gpuIndices,
      settings: {
        timeoutS: job.timeoutS,
        gpus: job.gpusRequired,
        network: settings.network,
        secrets,
        salvageRetryBelowS: settings.salvageRetryBelowS,
        maxOutputFileBytes: MAX_OUTPUT_FILE_BYTES,
        diskLimitMiB: settings.diskLimitMiB,
        memoryLimitMiB: settings.memoryLimitMiB,
        processLimit: settings.processLimit,
      },
    },
    lease: {
      id: leaseId,
      expiresAt: job.leaseExpiresAt!.toISOString(),
      leaseS: timings.leaseS,
      heartbeatS: timings.heartbeatS,
    },
    jobToken: issueJobToken(job.id, leaseId, runnerTokenId),
  };
}
