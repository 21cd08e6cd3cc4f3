import "server-only";
import type { Store } from "@/db/client";
import { getEvaluationCell } from "@/db/queries/evaluation-cells";
import { getEvaluationById } from "@/db/queries/evaluations";
import type { Job } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { retryEvaluationCell } from "./retry-cells";
import { enqueueReproduceJob } from "@/server/submissions/enqueue-reproduce";

/**
 * Runs an ended reproduction again, as a new job of the same submission (the old one's log and
 * outputs stay). A submission in an evaluation's pipeline is retried as its cell, by the matrix's
 * rule (`retryEvaluationCell`): its next attempt reproduces again and the cell moves on with the
 * new job. A cell that is not to be retried (still running, or done and counted) is a 409 saying
 * so, never a job the evaluation would not see.
 */
export async function retryJob(store: Store, job: Job, userId: string): Promise<{ jobId: string }> {
  if (!isFinalJobStatus(job.status)) throw new AppError("conflict", `The job is still ${job.status}: cancel it first`);
  if (job.kind !== "reproduce" || !job.submissionId)
    throw new AppError("bad_request", "Only a reproduction can be retried here");
  const cell = await getEvaluationCell(store.db, job.submissionId);
  if (!cell) return enqueueReproduceJob(store, { submissionId: job.submissionId, paperId: job.paperId, userId });
  const { retried, jobId } = await retryEvaluationCell(store, job.submissionId, userId, "reproduce");
  if (retried && jobId) return { jobId };
  const evaluation = await getEvaluationById(store.db, cell.evaluationId);
  const where = `evaluation "${evaluation?.name ?? cell.evaluationId}"`;
  throw new AppError(
    "conflict",
    cell.stage === "done"
      ? `This submission's cell in ${where} is done and counted: retry it from the evaluation's page only if it failed`
      : `This submission's cell in ${where} is still ${cell.stage}: wait for it to end`,
    [{ path: "jobId", message: `its evaluation cell is ${cell.stage}` }],
  );
}
