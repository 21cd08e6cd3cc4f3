import "server-only";
import type { Store } from "@/db/client";
import { listFailedEvaluationCells, listMatrixCellRows, lockEvaluationCell, updateEvaluationCell } from "@/db/queries/evaluation-cells";
import { getEvaluationById } from "@/db/queries/evaluations";
import { getJobById } from "@/db/queries/jobs";
import { AppError } from "@/lib/errors";
import type { RetryCellsInput, RetryCellsResult } from "@/lib/evaluations/matrix";
import { isUuid } from "@/lib/uuid";
import { advanceCell } from "./advance-cell";
import { announceEvaluationChanged } from "./evaluation-feed";

/**
 * Retries cells by hand (staff): each named cell, or every failed one, whose pipeline ended
 * `failed` or done with a failure (invalid leaves) starts its next attempt (one more counted):
 * the judge again when its reproduction had succeeded, else from the reproduction. A cell still
 * running, done without failure, or ingested is left as it is; a cell without a submission is a
 * 400 naming it.
 */
export async function retryEvaluationCells(store: Store, evaluationId: string, input: RetryCellsInput, userId: string | null): Promise<RetryCellsResult> {
  const evaluation = isUuid(evaluationId) ? await getEvaluationById(store.db, evaluationId) : null;
  if (!evaluation) throw new AppError("not_found", `No evaluation with id "${evaluationId}"`);
  let submissionIds: string[];
  if ("allFailed" in input) {
    submissionIds = (await listFailedEvaluationCells(store.db, evaluationId)).map((c) => c.submissionId);
  } else {
    const rows = await listMatrixCellRows(store.db, evaluationId);
    submissionIds = input.cells.map((c, i) => {
      const row = rows.find((r) => r.paperId === c.paperId && r.runIndex === c.run);
      if (!row) throw new AppError("bad_request", `cells.${i}: run ${c.run} of "${c.paperId}" has no submission in this evaluation`, [{ path: `cells.${i}`, message: "no submission" }]);
      return row.submissionId;
    });
  }
  let retried = 0;
  for (const submissionId of new Set(submissionIds)) {
    const restarted = await store.db.transaction(async (tx) => {
      const cell = await lockEvaluationCell(tx, submissionId);
      if (!cell || !(cell.stage === "failed" || (cell.stage === "done" && cell.failureKind !== null))) return false;
      const job = cell.jobId ? await getJobById(tx, cell.jobId) : null;
      const judgeAgain = cell.failureKind === "judge_invalid_leaves" && (evaluation.variant === "code-dev" || job?.status === "succeeded");
      await updateEvaluationCell(tx, submissionId, {
        stage: judgeAgain ? "judging" : "uploaded",
        attempts: cell.attempts + 1,
        judgeRunId: null,
        ...(judgeAgain ? {} : { jobId: null }),
        finishedAt: null,
      });
      return true;
    });
    if (!restarted) continue;
    retried++;
    await advanceCell(store, submissionId, userId);
  }
  if (retried > 0) await announceEvaluationChanged(store, evaluationId);
  return { retried };
}
