import "server-only";
import type { Store } from "@/db/client";
import {
  getEvaluationCell,
  listFailedEvaluationCells,
  listEvaluationCellRows,
  lockEvaluationCell,
  updateEvaluationCell,
} from "@/db/queries/evaluation-cells";
import { getEvaluationById } from "@/db/queries/evaluations";
import { getJobById } from "@/db/queries/jobs";
import { AppError } from "@/lib/errors";
import type { RetryCellsInput, RetryCellsResult } from "@/lib/evaluations/matrix";
import { manualRetryStep } from "@/lib/evaluations/pipeline";
import { isJudgeableReproduction } from "@/lib/jobs/judge-source";
import { isUuid } from "@/lib/uuid";
import { advanceCell } from "./advance-cell";
import { announceEvaluationChanged } from "./evaluation-feed";

/**
 * Retries cells by hand (staff): each named cell, or every failed one, whose pipeline ended
 * `failed` or done with a failure (invalid leaves) starts its next attempt (one more counted), by
 * `manualRetryStep`. A cell still running, done without failure, or ingested is left as it is; a
 * cell without a submission is a 400 naming it.
 */
export async function retryEvaluationCells(
  store: Store,
  evaluationId: string,
  input: RetryCellsInput,
  userId: string | null,
): Promise<RetryCellsResult> {
  const evaluation = isUuid(evaluationId) ? await getEvaluationById(store.db, evaluationId) : null;
  if (!evaluation) throw new AppError("not_found", `No evaluation with id "${evaluationId}"`);
  let submissionIds: string[];
  if ("allFailed" in input) {
    submissionIds = (await listFailedEvaluationCells(store.db, evaluationId)).map((c) => c.submissionId);
  } else {
    const rows = await listEvaluationCellRows(store.db, evaluationId);
    submissionIds = input.cells.map((c, i) => {
      const row = rows.find((r) => r.paperId === c.paperId && r.runIndex === c.run);
      if (!row)
        throw new AppError(
          "bad_request",
          `cells.${i}: run ${c.run} of "${c.paperId}" has no submission in this evaluation`,
          [{ path: `cells.${i}`, message: "no submission" }],
        );
      return row.submissionId;
    });
  }
  let retried = 0;
  for (const submissionId of new Set(submissionIds)) {
    if ((await retryEvaluationCell(store, submissionId, userId)).retried) retried++;
  }
  if (retried > 0) await announceEvaluationChanged(store, evaluationId);
  return { retried };
}

/**
 * Retries one cell by hand, by the one rule (`manualRetryStep`): its next attempt is written under
 * the cell's lock, then the pipeline takes its step (queues the reproduction or starts the judge
 * run). `from: "reproduce"`: the retry of its reproduce job on /jobs, which reproduces again.
 * Answers whether it retried, and the cell's reproduce job after the step.
 */
export async function retryEvaluationCell(
  store: Store,
  submissionId: string,
  userId: string | null,
  from?: "reproduce",
): Promise<{ retried: boolean; jobId: string | null }> {
  const restarted = await store.db.transaction(async (tx) => {
    const cell = await lockEvaluationCell(tx, submissionId);
    if (!cell) return false;
    const evaluation = await getEvaluationById(tx, cell.evaluationId);
    if (!evaluation) return false;
    const job = cell.jobId ? await getJobById(tx, cell.jobId) : null;
    const step = manualRetryStep({
      variant: evaluation.variant,
      stage: cell.stage,
      failureKind: cell.failureKind,
      job: job ? { judgeable: isJudgeableReproduction(job) } : null,
      from,
    });
    if (step === null) return false;
    await updateEvaluationCell(tx, submissionId, {
      stage: step === "judge" ? "judging" : "uploaded",
      attempts: cell.attempts + 1,
      judgeRunId: null,
      ...(step === "judge" ? {} : { jobId: null }),
      finishedAt: null,
    });
    return true;
  });
  if (!restarted) return { retried: false, jobId: null };
  // The step announces the evaluation's change itself.
  await advanceCell(store, submissionId, userId);
  return { retried: true, jobId: (await getEvaluationCell(store.db, submissionId))?.jobId ?? null };
}
