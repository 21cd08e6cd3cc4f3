import "server-only";
import type { Store } from "@/db/client";
import { log } from "@/server/observability/log";
import { findEvaluationCellOfJob } from "@/db/queries/evaluation-cells";
import type { JobEvent } from "@/server/jobs/job-events";
import { advanceCell } from "./advance-cell";
import { announceEvaluationChanged, announceEvaluationProgress } from "./evaluation-feed";

/**
 * The pipeline's subscription to the queue's events: a job's change of state moves its cell on; a
 * judge run's stored verdicts refresh its evaluation's matrix. A queued job is the pipeline's own step.
 */
export async function advanceCellOnJobEvent(store: Store, event: JobEvent): Promise<void> {
  if (event.type === "queued") return;
  if (event.type === "progress") {
    if (event.job.kind === "judge") await afterJudgeProgress(store, event.job.id);
    return;
  }
  await afterJobChanged(store, event.job.id);
}

/**
 * A job changed state (claimed, completed, failed, requeued, expired, cancelled), after its
 * transaction committed: the cell it belongs to, if any, takes its next step and its evaluation
 * hears of it. A failure here never fails the queue's operation (the sweep takes the step later).
 */
async function afterJobChanged(store: Store, jobId: string): Promise<void> {
  try {
    const cell = await findEvaluationCellOfJob(store.db, jobId);
    if (!cell) return;
    const advanced = await advanceCell(store, cell.submissionId);
    // A claim or a requeue is no step of the pipeline but changes what the matrix shows.
    if (advanced?.step === "wait") await announceEvaluationChanged(store, cell.evaluationId);
  } catch (err) {
    log.error({ err, jobId }, "advancing the evaluation cell of the job failed");
  }
}

/**
 * A judge job's evaluation (null: none), remembered: a run reports progress on every batch of
 * verdicts it stores, and a job never moves to another cell. (A run whose submission joins an
 * evaluation only while it grades misses just these refreshes: its end still advances the cell.)
 */
const evaluationOfJudgeJob = new Map<string, string | null>();

/** A judge run stored a verdict: its evaluation hears of it at most once a second. */
async function afterJudgeProgress(store: Store, jobId: string): Promise<void> {
  try {
    let evaluationId = evaluationOfJudgeJob.get(jobId);
    if (evaluationId === undefined) {
      evaluationId = (await findEvaluationCellOfJob(store.db, jobId))?.evaluationId ?? null;
      if (evaluationOfJudgeJob.size >= 1_000) evaluationOfJudgeJob.clear();
      evaluationOfJudgeJob.set(jobId, evaluationId);
    }
    if (evaluationId) await announceEvaluationProgress(store, evaluationId);
  } catch {
    // Only the matrix's refresh is lost; the next change or its once-a-second look catches up.
  }
}
