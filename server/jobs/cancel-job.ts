import "server-only";
import type { Store } from "@/db/client";
import { requestJobCancel } from "@/db/queries/jobs";
import type { Job } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { publishJobEvent } from "./job-events";

/**
 * Cancels a job: a queued one at once; a running one is marked and its holder hears it at once
 * (the `cancelled` event: a runner's wait-cancel long poll on any instance, a worker's follow),
 * then SIGTERM to the job's processes, a grace period, SIGKILL; its completion is recorded as
 * cancelled whatever it reports (`completeJob`). A holder that never answers again leaves it
 * cancelled when its lease expires.
 */
export async function cancelJob(store: Store, job: Job, userId: string | null): Promise<Job> {
  const updated = await requestJobCancel(store.db, job.id, userId);
  if (!updated) throw new AppError("conflict", `The job has already ended (${job.status})`);
  await publishJobEvent(store, {
    type: "cancelled",
    job: { id: updated.id, kind: updated.kind, status: updated.status },
  });
  return updated;
}
