import "server-only";
import type { Executor, Store } from "@/db/client";
import { listEvaluationCellRows } from "@/db/queries/evaluation-cells";
import { getEvaluationById, listEvaluations } from "@/db/queries/evaluations";
import type { Evaluation } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/uuid";
import { cellStateOf } from "@/lib/evaluations/cell-state";
import { policyStateOf } from "@/lib/evaluations/pipeline";
import type { Agreement } from "@/lib/evaluations/agreement";
import {
  applyPolicies,
  describePolicy,
  type CellState,
  type EvaluationCell,
  type PolicyResult,
} from "@/lib/evaluations/policies";
import { FAILURE_KINDS, type FailureKind, type ImportedRunResult } from "@/lib/evaluations/schemas";
import { isFlagged } from "@/lib/submissions/blacklist-monitor";
import type { GradingProvenance } from "@/lib/evaluations/provenance";
import { readResourcesProvidedScore } from "./resources-provided-score";
import { readEvaluationAgreement } from "./review-agreement";

export interface EvaluationCellView {
  paperId: string;
  run: number;
  state: CellState;
  score: number | null;
  submissionId: string;
  gradingId: string | null;
  /** The grading is a placeholder judge's (Dummy, Random): members only, never in a public figure. */
  placeholder: boolean;
  /** How the grading was made (migration 0021); null without a grading. */
  provenance: GradingProvenance | null;
  invalidLeaves: number;
  leaves: number;
  imported: ImportedRunResult | null;
  /** The agent's log names a blacklisted site: the `blacklisted` policy decides the cell. */
  flagged: boolean;
  /** Under resources provided: the leaves of the grading that weigh 0 (its score is read with them at 0). */
  zeroedLeaves?: number;
  /** Attempts the pipeline made at it (absent for an ingested result): a retry policy counts them. */
  attempts?: number;
}

export interface EvaluationSummary {
  evaluation: Evaluation & { agentName: string };
  /** Every paper of the evaluation (its split's, and any it holds a run of), sorted. */
  papers: string[];
  cells: EvaluationCellView[];
  /** The policy per failure kind as it reads ("count as 0"). */
  policy: Record<FailureKind, string>;
  result: PolicyResult;
  /** Resources provided: how many leaves weigh 0 in each paper's graded cells; null when the setting is off. */
  resourcesProvided: { zeroedLeaves: Record<string, number> } | null;
  /** Judge–human agreement on the leaves sampled for review (F1, bootstrap 95% interval); null before any is reviewed. */
  agreement: Agreement | null;
}

export async function listEvaluationSummaries(store: Store) {
  return listEvaluations(store.db);
}

/**
 * An evaluation's stored cells (one per submission), in paper and run order. Under resources
 * provided, each graded cell's score is its grading's recomputed with the acquisition leaves at 0.
 */
export async function readEvaluationCells(db: Executor, evaluationId: string): Promise<EvaluationCellView[]> {
  const rows = await listEvaluationCellRows(db, evaluationId);
  const cells: EvaluationCellView[] = [];
  for (const r of rows) {
    const underSetting =
      r.resourcesProvided && r.gradingId !== null ? await readResourcesProvidedScore(db, r.gradingId) : null;
    cells.push({
      paperId: r.paperId,
      run: r.runIndex,
      // A pipeline cell is graded once its pipeline says so (a running judge run's grading is not), with its attempts.
      state: r.stage
        ? policyStateOf(r.stage, r.failureKind && { kind: r.failureKind, reason: r.failureReason ?? "" })
        : cellStateOf({
            imported: r.importedResult,
            jobStatus: r.latestJobStatus,
            hasGrading: r.gradingId !== null,
            invalidLeaves: r.invalidLeaves,
          }),
      score: r.stage && r.stage !== "done" ? null : underSetting ? underSetting.score : r.score,
      submissionId: r.submissionId,
      gradingId: r.gradingId,
      placeholder: r.placeholder,
      provenance: r.provenance,
      invalidLeaves: r.invalidLeaves,
      leaves: r.leaves,
      imported: r.importedResult,
      flagged: isFlagged(r.flags),
      ...(underSetting ? { zeroedLeaves: underSetting.zeroedLeaves } : {}),
      ...(r.stage && r.attempts !== null ? { attempts: r.attempts } : {}),
    });
  }
  return cells;
}

/**
 * What the policies read for `papers`: the stored cells of those papers, and a pending cell for
 * each paper × run without a submission, sorted. The summary and the leaderboard share it.
 */
export function policyCellsOf(
  evaluation: Pick<Evaluation, "runs">,
  cells: readonly EvaluationCellView[],
  papers: readonly string[],
): EvaluationCell[] {
  const wanted = new Set(papers);
  const stored = cells.filter((c) => wanted.has(c.paperId));
  const present = new Set(stored.map((c) => `${c.paperId}\u0000${c.run}`));
  const policyCells: EvaluationCell[] = stored.map(({ paperId, run, state, score, flagged, attempts }) => ({
    paperId,
    run,
    state,
    score,
    flagged,
    ...(attempts !== undefined ? { attempts } : {}),
  }));
  for (const paperId of papers) {
    for (let run = 1; run <= evaluation.runs; run++) {
      if (!present.has(`${paperId}\u0000${run}`)) policyCells.push({ paperId, run, state: "pending", score: null });
    }
  }
  return policyCells.sort((a, b) => (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : a.run - b.run));
}

/**
 * An evaluation with its cells (paper × run: state, score, submission, grading) and the per-run
 * scores, mean and standard error its policies give, with every excluded cell and its reason.
 * A paper of the split without a run yet is a pending cell of each run.
 */
export async function readEvaluationSummary(store: Store, id: string): Promise<EvaluationSummary> {
  const evaluation = isUuid(id) ? await getEvaluationById(store.db, id) : null;
  if (!evaluation) throw new AppError("not_found", `No evaluation with id "${id}"`);
  const cells = await readEvaluationCells(store.db, id);
  const papers = [...new Set([...evaluation.paperIds, ...cells.map((c) => c.paperId)])].sort();
  const policyCells = policyCellsOf(evaluation, cells, papers);
  const result = applyPolicies(policyCells, evaluation.policies, {
    runs: evaluation.runs,
    aggregation: evaluation.aggregation,
  });
  const policy = Object.fromEntries(FAILURE_KINDS.map((k) => [k, describePolicy(evaluation.policies[k])])) as Record<
    FailureKind,
    string
  >;
  const agreement = await readEvaluationAgreement(store.db, id);
  const resourcesProvided = evaluation.resourcesProvided
    ? {
        zeroedLeaves: Object.fromEntries(
          cells.filter((c) => c.zeroedLeaves !== undefined).map((c) => [c.paperId, c.zeroedLeaves!]),
        ),
      }
    : null;
  return { evaluation, papers, cells, policy, result, resourcesProvided, agreement };
}
