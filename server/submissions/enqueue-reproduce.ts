import "server-only";
import type { Store } from "@/db/client";
import { insertJob } from "@/db/queries/jobs";
import { JOB_TIMINGS } from "@/lib/jobs/states";
import { readRunSettings } from "@/server/papers/run-settings";
import { publishJobQueued } from "@/server/jobs/job-events";

/**
 * Queues a reproduction of a submission with its paper's settings as they are now (timeout, GPUs);
 * network and secrets are read when a runner claims it, so a changed secret reaches the next run.
 * Announced after the caller's transaction, when there is one: pass `announce: false` inside one and
 * call `publishJobQueued` after it commits.
 */
export async function enqueueReproduceJob(
  store: Store,
  input: { submissionId: string; paperId: string; userId: string | null; announce?: boolean },
): Promise<{ jobId: string }> {
  const settings = await readRunSettings(store.db, input.paperId);
  const job = await insertJob(store.db, {
    kind: "reproduce",
    paperId: input.paperId,
    submissionId: input.submissionId,
    gpusRequired: settings.gpus,
    timeoutS: settings.timeoutS,
    maxAttempts: JOB_TIMINGS.defaultMaxAttempts,
    createdBy: input.userId,
  });
  if (input.announce !== false) await publishJobQueued(store, job);
  return { jobId: job.id };
}
