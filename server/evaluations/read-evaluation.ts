import "server-only";
import type { Store } from "@/db/client";
import { getEvaluationById, listEvaluationCellRows, listEvaluations } from "@/db/queries/evaluations";
import type { Evaluation } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/uuid";
import { cellStateOf } from "@/lib/evaluations/cell-state";
import { applyPolicies, describePolicy, type CellState, type PolicyResult } from "@/lib/evaluations/policies";
import { FAILURE_KINDS, type FailureKind, type ImportedRunResult } from "@/lib/evaluations/schemas";

export interface EvaluationCellView {
  paperId: string;
  run: number;
  state: CellState;
  score: number | null;
  submissionId: string;
  gradingId: string | null;
  invalidLeaves: number;
  leaves: number;
  imported: ImportedRunResult | null;
}

export interface EvaluationSummary {
  evaluation: Evaluation & { agentName: string };
  /** Every paper of the evaluation (its split's, and any it holds a run of), sorted. */
  papers: string[];
  cells: EvaluationCellView[];
  /** The policy per failure kind as it reads ("count as 0"). */
  policy: Record<FailureKind, string>;
  result: PolicyResult;
}

export async function listEvaluationSummaries(store: Store) {
  return listEvaluations(store.db);
}

/**
 * An evaluation with its cells (paper × run: state, score, submission, grading) and the per-run
 * scores, mean and standard error its policies give, with every excluded cell and its reason.
 * A paper of the split without a run yet is a pending cell of each run.
 */
export async function readEvaluationSummary(store: Store, id: string): Promise<EvaluationSummary> {
  const evaluation = isUuid(id) ? await getEvaluationById(store.db, id) : null;
  if (!evaluation) throw new AppError("not_found", `No evaluation with id "${id}"`);
  const rows = await listEvaluationCellRows(store.db, id);
  const cells: EvaluationCellView[] = rows.map((r) => ({
    paperId: r.paperId,
    run: r.runIndex,
    state: cellStateOf({ imported: r.importedResult, jobStatus: r.latestJobStatus, hasGrading: r.gradingId !== null, invalidLeaves: r.invalidLeaves }),
    score: r.score,
    submissionId: r.submissionId,
    gradingId: r.gradingId,
    invalidLeaves: r.invalidLeaves,
    leaves: r.leaves,
    imported: r.importedResult,
  }));
  const papers = [...new Set([...evaluation.paperIds, ...cells.map((c) => c.paperId)])].sort();
  const present = new Set(cells.map((c) => `${c.paperId}\u0000${c.run}`));
  const policyCells = cells.map(({ paperId, run, state, score }) => ({ paperId, run, state, score }));
  for (const paperId of papers) {
    for (let run = 1; run <= evaluation.runs; run++) {
      if (!present.has(`${paperId}\u0000${run}`)) policyCells.push({ paperId, run, state: "pending", score: null });
    }
  }
  policyCells.sort((a, b) => (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : a.run - b.run));
  const result = applyPolicies(policyCells, evaluation.policies, { runs: evaluation.runs, aggregation: evaluation.aggregation });
  const policy = Object.fromEntries(FAILURE_KINDS.map((k) => [k, describePolicy(evaluation.policies[k])])) as Record<FailureKind, string>;
  return { evaluation, papers, cells, policy, result };
}
