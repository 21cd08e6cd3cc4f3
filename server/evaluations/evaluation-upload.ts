import "server-only";
import { getEvaluationCell } from "@/db/queries/evaluation-cells";
import { setSubmissionEvaluationId } from "@/db/queries/evaluations";
import type { SubmissionUploadWorkflow } from "@/server/submissions/upload-submission";
import { evaluationForRun } from "./evaluation-run";
import { startEvaluationCell } from "./pipeline/advance-cell";

/**
 * An upload of one run of an evaluation (a harness naming `evaluation`, a bulk upload, an ingest):
 * the run must fit the evaluation (`evaluationForRun`), the submission is linked to it, and once
 * stored the evaluation's pipeline reproduces (full variant) and judges it; a replaced archive starts
 * it again. None when the upload names no evaluation.
 */
export function evaluationUpload(evaluationId: string | undefined): SubmissionUploadWorkflow | undefined {
  if (evaluationId === undefined) return undefined;
  return {
    check: async (db, run) => {
      await evaluationForRun(db, evaluationId, run);
    },
    link: (tx, submissionId) => setSubmissionEvaluationId(tx, submissionId, evaluationId),
    start: async (store, upload) => {
      await startEvaluationCell(store, {
        submissionId: upload.submissionId,
        evaluationId,
        restart: upload.replaced,
        userId: upload.userId,
      });
      const cell = await getEvaluationCell(store.db, upload.submissionId);
      return { jobId: cell?.jobId ?? undefined };
    },
  };
}
