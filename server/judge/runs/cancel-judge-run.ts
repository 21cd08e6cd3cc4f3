import "server-only";
import type { Store } from "@/db/client";
import { getJobById } from "@/db/queries/jobs";
import { AppError } from "@/lib/errors";
import type { JudgeRunView } from "@/lib/judge/views";
import { cancelJob } from "@/server/jobs/cancel-job";
import { readJudgeRun } from "./read-judge-run";

/**
 * Cancels a run through its job: a queued one at once; a running one's worker hears it on its next
 * heartbeat and aborts its calls in flight (verdicts already stored stay, the grading partial).
 */
export async function cancelJudgeRun(store: Store, run: JudgeRunView, userId: string | null): Promise<JudgeRunView> {
  const job = run.jobId ? await getJobById(store.db, run.jobId) : null;
  if (!job) throw new AppError("conflict", "This judge run has no job to cancel");
  await cancelJob(store, job, userId);
  return (await readJudgeRun(store, run.id))!;
}
