"use client";

import type { MatrixCell } from "@/lib/evaluations/matrix";
import type { FailureKind } from "@/lib/evaluations/schemas";
import { EvaluationAgreement } from "./evaluation-agreement";
import { EvaluationEmpty } from "./evaluation-empty";
import { EvaluationFailures, type FailureRow } from "./evaluation-failures";
import { EvaluationHeader } from "./evaluation-header";
import { EvaluationMatrixGrid } from "./evaluation-matrix-grid";
import { EvaluationProgress } from "./evaluation-progress";
import { useEvaluationMatrix } from "./evaluation-query";
import { EvaluationResults } from "./evaluation-results";
import { EvaluationUpload } from "./evaluation-upload";
import { useEvaluationStream } from "./use-evaluation-stream";

const FAILURE_WORDS: Record<FailureKind, string> = {
  reproduction_failed: "reproduction failed",
  reproduction_timed_out: "reproduction timed out",
  judge_invalid_leaves: "invalid leaves",
  blacklisted: "blacklisted site",
};

/** The cells with a failure, for the failures list; a flagged run is listed but has nothing to retry (its log stays what it was). */
function failureRows(cells: MatrixCell[]): FailureRow[] {
  return cells
    .filter((c) => c.failure !== null)
    .map((c) => ({
      paperId: c.paperId,
      run: c.run,
      label: FAILURE_WORDS[c.failure!.kind],
      reason: c.failure!.reason,
      submissionId: c.submissionId,
      retryable: c.failure!.kind !== "blacklisted",
    }));
}

/**
 * /evaluations/<id>: the header with policies and exports, the upload (any cells, or one run again), progress, the matrix of papers × runs,
 * failures with Retry, the results under the policies and, once there is any, judge–human
 * agreement. It follows the evaluation's stream and reads the matrix again when a cell changes.
 */
export function EvaluationPage({ evaluationId }: { evaluationId: string }) {
  const matrix = useEvaluationMatrix(evaluationId);
  const connection = useEvaluationStream(evaluationId);

  if (matrix.isPending) return <div className="h-40 animate-pulse rounded-lg bg-zinc-100" aria-busy="true" />;
  if (matrix.isError) {
    return (
      <p
        role="alert"
        className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800"
        data-testid="evaluation-error"
      >
        {matrix.error.message}
      </p>
    );
  }
  const data = matrix.data;
  const e = data.evaluation;
  const empty = data.cells.every((c) => c.submissionId === null);

  return (
    <div className="space-y-4" data-testid="evaluation-page" data-evaluation={e.id}>
      <EvaluationHeader matrix={data} connection={connection} />
      <EvaluationUpload evaluationId={e.id} papers={data.papers} runs={e.runs} />
      {empty ? (
        <EvaluationEmpty evaluationId={e.id} agent={e.agent} runs={e.runs} />
      ) : (
        <EvaluationProgress figures={data.progress} />
      )}
      <EvaluationMatrixGrid papers={data.papers} runs={e.runs} cells={data.cells} />
      {!empty && <EvaluationFailures evaluationId={e.id} failures={failureRows(data.cells)} />}
      {!empty && <EvaluationResults result={data.result} />}
      {data.agreement && <EvaluationAgreement agreement={data.agreement} />}
    </div>
  );
}
