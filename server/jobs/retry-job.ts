import "server-only";
import type { Store } from "@/db/client";
import type { Job } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { enqueueReproduceJob } from "./enqueue-reproduce";

/** Runs an ended reproduction again, as a new job of the same submission (the old one's log and outputs stay). */
export async function retryJob(store: Store, job: Job, userId: string): Promise<{ jobId: string }> {
  if (!isFinalJobStatus(job.status)) throw new AppError("conflict", `The job is still ${job.status}: cancel it first`);
  if (job.kind !== "reproduce" || !job.submissionId) throw new AppError("bad_request", "Only a reproduction can be retried here");
  return enqueueReproduceJob(store, { submissionId: job.submissionId, paperId: job.paperId, userId });
}
