import "server-only";
import type { Executor } from "@/db/client";
import {
  listLeaderboardEvaluations,
  type LeaderboardEvaluation,
  type LeaderboardGradingRow,
} from "@/db/queries/leaderboard";
import type { Agreement } from "@/lib/evaluations/agreement";
import { applyPolicies, describePolicy, type CellState } from "@/lib/evaluations/policies";
import { policyLabel } from "@/lib/evaluations/policy-label";
import { FAILURE_KINDS } from "@/lib/evaluations/schemas";
import { numpyMean, standardError } from "@/lib/grading/stats";
import type { Variant } from "@/lib/grading/variant";
import type { LeaderboardAgentRow } from "@/lib/leaderboard/types";
import type { GradingProvenance } from "@/lib/evaluations/provenance";
import { madeOf, scoringMethodOf } from "@/lib/evaluations/scoring-method";
import { policyCellsOf, readEvaluationCells, type EvaluationCellView } from "@/server/evaluations/read-evaluation";
import { readAgreements } from "@/server/evaluations/review-agreement";

/**
 * Leaderboard rows computed from evaluations. An agent with an evaluation of the board's variant
 * whose papers include every paper of the board (and with a graded cell on them) gets its row
 * from that evaluation, the newest if several: its cells on the board's papers under its policies
 * and aggregation (`applyPolicies`, as the evaluation page computes them), saying which. Other
 * agents keep the gradings as they are ("as graded").
 *
 * A cell whose grading is under an open blind review (review sampling assigns blind) publishes
 * nothing: it is left out as pending, "awaiting blind review", like the board's other rows.
 */

export interface EvaluationData {
  evaluation: LeaderboardEvaluation;
  cells: EvaluationCellView[];
  /** The evaluation's papers: its split's and any it holds a run of. */
  papers: ReadonlySet<string>;
  agreement: Agreement | null;
}

/** The evaluations of a variant with their cells and agreement, newest first. */
export async function readEvaluationData(db: Executor, variant: Variant): Promise<EvaluationData[]> {
  const evaluations = await listLeaderboardEvaluations(db, variant);
  if (evaluations.length === 0) return [];
  const agreements = await readAgreements(
    db,
    evaluations.map((e) => e.id),
  );
  const out: EvaluationData[] = [];
  for (const evaluation of evaluations) {
    const cells = await readEvaluationCells(db, evaluation.id);
    out.push({
      evaluation,
      cells,
      papers: new Set([...evaluation.paperIds, ...cells.map((c) => c.paperId)]),
      agreement: agreements.get(evaluation.id) ?? null,
    });
  }
  return out;
}

/** Per agent, the evaluation its row on a board of these papers is computed from. */
export function evaluationsForBoard(
  evaluations: readonly EvaluationData[],
  paperIds: readonly string[],
): Map<string, EvaluationData> {
  const chosen = new Map<string, EvaluationData>();
  if (paperIds.length === 0) return chosen;
  for (const data of evaluations) {
    if (chosen.has(data.evaluation.agentId)) continue; // newest first
    if (!paperIds.every((p) => data.papers.has(p))) continue;
    const board = new Set(paperIds);
    if (!data.cells.some((c) => board.has(c.paperId) && c.gradingId !== null)) continue;
    chosen.set(data.evaluation.agentId, data);
  }
  return chosen;
}

type RowBody = Omit<LeaderboardAgentRow, "rank" | "agentId" | "name" | "model" | "scaffold" | "isDemo">;

/** An agent's row from its evaluation on the board's papers (rank given later, with the others'). */
export function evaluationRow(
  data: EvaluationData,
  paperIds: readonly string[],
  board: { pendingReview: ReadonlySet<string>; gradings: ReadonlyMap<string, LeaderboardGradingRow> },
): RowBody {
  const { evaluation } = data;
  const blind = new Set<string>();
  const cellKey = (paperId: string, run: number) => `${paperId}\u0000${run}`;
  const visible = data.cells.map((c): EvaluationCellView => {
    if (c.gradingId === null || !board.pendingReview.has(c.gradingId)) return c;
    blind.add(cellKey(c.paperId, c.run));
    return { ...c, state: "pending", score: null };
  });
  const cells = policyCellsOf(evaluation, visible, paperIds);
  const result = applyPolicies(cells, evaluation.policies, {
    runs: evaluation.runs,
    aggregation: evaluation.aggregation,
  });
  const gradingOf = new Map(visible.map((c) => [cellKey(c.paperId, c.run), c.gradingId]));
  const stateOf = new Map(cells.map((c) => [cellKey(c.paperId, c.run), c.state]));

  const counted = result.counted.filter((c) => c.run >= 1 && c.run <= evaluation.runs);
  const countedGradings = counted.flatMap((c) => {
    const id = gradingOf.get(cellKey(c.paperId, c.run));
    const row = id ? board.gradings.get(id) : undefined;
    return row ? [row] : [];
  });
  const perPaper = paperIds.map((paperId) => {
    const values = counted.filter((c) => c.paperId === paperId).map((c) => c.score);
    const pendingRuns = [...blind].filter((k) => k.startsWith(`${paperId}\u0000`)).length;
    return {
      paperId,
      mean: values.length > 0 ? numpyMean(values) : null,
      stdErr: standardError(values),
      nRuns: values.length,
      pendingRuns,
    };
  });
  const covered = perPaper.flatMap((p) => (p.mean === null ? [] : [p.mean]));
  const runs = result.runScores.flatMap((score, i) => (score === null ? [] : [{ run: i + 1, score }]));
  const reviewed = countedGradings.filter((g) => g.reviewed).length;
  const countedCells = counted.flatMap((c) => {
    const cell = visible.find((v) => v.paperId === c.paperId && v.run === c.run && v.gradingId !== null);
    return cell ? [cell] : [];
  });
  return {
    mean: result.mean,
    stdErr: result.se,
    nRuns: runs.length,
    runs,
    excludedRuns: [],
    perPaper,
    judgeModels: [...new Set(countedGradings.flatMap((g) => (g.judgeModel ? [g.judgeModel] : [])))].sort(),
    countedGradings: countedGradings.length,
    reviewedGradings: reviewed,
    humanReviewed: countedGradings.length > 0 && reviewed === countedGradings.length,
    coverage: { papers: covered.length, of: paperIds.length, mean: covered.length > 0 ? numpyMean(covered) : null },
    basis: {
      kind: "evaluation",
      label: policyLabel({
        aggregation: evaluation.aggregation,
        runs: evaluation.runs,
        policies: evaluation.policies,
        states: cells.filter((c) => !blind.has(cellKey(c.paperId, c.run))).map((c) => c.state),
        pendingReview: blind.size,
        flagged: cells.filter((c) => c.flagged).length,
      }),
      evaluationId: evaluation.id,
      evaluationName: evaluation.name,
      aggregation: evaluation.aggregation,
      runs: evaluation.runs,
      policies: Object.fromEntries(
        FAILURE_KINDS.flatMap((k) => (evaluation.policies[k] ? [[k, describePolicy(evaluation.policies[k])]] : [])),
      ),
      setup: evaluation.setup,
      resourcesProvided: evaluation.resourcesProvided,
      excludedCells: result.excluded.map((x) => {
        const key = cellKey(x.paperId, x.run);
        const state: CellState = stateOf.get(key) ?? "pending";
        return {
          paperId: x.paperId,
          run: x.run,
          state,
          reason: blind.has(key) ? "excluded: blind review open" : x.reason,
        };
      }),
    },
    // How the counted gradings were made, under the evaluation's policies (the ones applied).
    method: scoringMethodOf(
      countedCells.map((c) => madeOf(c.provenance, c.placeholder, "judge")),
      evaluation.policies,
    ),
    isHuman: evaluation.isHuman,
    agreement: data.agreement,
  };
}

/** What the scoring mark reads of a counted grading. */
export function madeOfRow(
  row: LeaderboardGradingRow,
): Pick<GradingProvenance, "origin" | "judgeKind" | "mode" | "policies"> {
  return madeOf(row.provenance, row.placeholder, row.kind);
}
