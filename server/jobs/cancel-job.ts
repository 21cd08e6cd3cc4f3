import "server-only";
import type { Store } from "@/db/client";
import { requestJobCancel } from "@/db/queries/jobs";
import type { Job } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { announceJobCancelRequested, announceJobChanged } from "./job-feed";
import { afterJobChanged } from "@/server/evaluations/pipeline/job-events";

/**
 * Cancels a job: a queued one at once; a running one is marked and its runner hears it at once,
 * through its wait-cancel long poll on any instance (SIGTERM to the job's processes, a grace period,
 * SIGKILL); its completion is recorded as cancelled whatever it reports (`completeJob`). A runner
 * that never answers again leaves it cancelled when its lease expires.
 */
export async function cancelJob(store: Store, job: Job, userId: string | null): Promise<Job> {
  const updated = await requestJobCancel(store.db, job.id, userId);
  if (!updated) throw new AppError("conflict", `The job has already ended (${job.status})`);
  if (updated.status === "running") await announceJobCancelRequested(store, job.id);
  else await announceJobChanged(store, job.id);
  await afterJobChanged(store, job.id);
  return updated;
}
