import { numpyMean, standardError } from "@/lib/grading/stats";
import { csvField } from "@/lib/grading/serialize";
import type { CellState, PolicyResult } from "./policies";

/** A cell as the export writes it. */
export interface ExportCell {
  paperId: string;
  run: number;
  state: CellState;
  score: number | null;
  submissionId: string | null;
  gradingId: string | null;
  invalidLeaves: number;
  leaves: number;
  runGroupId: string | null;
}

export interface ExportEvaluation {
  id: string;
  name: string;
  agent: string;
  split: string;
  variant: string;
  runs: number;
  aggregation: string;
  resourcesProvided: boolean;
  isHuman: boolean;
  setup: unknown;
}

/**
 * An evaluation's results in PaperBench's terms: per paper the score of each run (in run order;
 * null where the policy excluded the cell) with `mean` and `std_err` (numpy's `np.std(ddof=1) /
 * sqrt(n)`, as `paperbench/metrics.py`), and overall the per-run scores (each the mean over its
 * papers), their mean, std_err and `n_runs`, plus what PaperBench leaves unsaid: the policies and
 * every excluded cell with its reason.
 */
export function evaluationResultsJson(
  evaluation: ExportEvaluation,
  policy: Record<string, string>,
  papers: readonly string[],
  result: PolicyResult,
) {
  const counted = new Map(result.counted.map((c) => [`${c.paperId}\u0000${c.run}`, c.score]));
  const perPaper: Record<string, { scores: (number | null)[]; mean: number | null; std_err: number | null }> = {};
  for (const paperId of papers) {
    const scores = Array.from({ length: evaluation.runs }, (_, i) => counted.get(`${paperId}\u0000${i + 1}`) ?? null);
    const present = scores.filter((s): s is number => s !== null);
    perPaper[paperId] = {
      scores,
      mean: present.length > 0 ? numpyMean(present) : null,
      std_err: standardError(present),
    };
  }
  return {
    evaluation: {
      id: evaluation.id,
      name: evaluation.name,
      agent: evaluation.agent,
      split: evaluation.split,
      variant: evaluation.variant,
      code_only: evaluation.variant === "code-dev",
      resources_provided: evaluation.resourcesProvided,
      is_human: evaluation.isHuman,
      n_runs: evaluation.runs,
      aggregation: evaluation.aggregation,
      setup: evaluation.setup,
      policies: result.policies,
      policy: policy,
    },
    per_paper: perPaper,
    overall: {
      run_scores: result.runScores,
      best_of_n_per_paper: evaluation.aggregation === "best_of_n" ? result.bestPerPaper : undefined,
      mean: result.mean,
      std_err: result.se,
      n: result.n,
    },
    excluded: result.excluded.map((e) => ({ paper_id: e.paperId, run: e.run, reason: e.reason })),
  };
}

export const EVALUATION_CSV_COLUMNS = [
  "paper_id",
  "run",
  "run_group_id",
  "state",
  "score",
  "counted_score",
  "excluded_reason",
  "invalid_leaves",
  "leaves",
  "submission_id",
  "grading_id",
] as const;

/** One row per cell (paper × run, sorted), CRLF line ends, RFC 4180 quoting: the graded score and what counted of it. */
export function evaluationCellsCsv(cells: readonly ExportCell[], result: PolicyResult): string {
  const key = (paperId: string, run: number) => `${paperId}\u0000${run}`;
  const counted = new Map(result.counted.map((c) => [key(c.paperId, c.run), c.score]));
  const excluded = new Map(result.excluded.map((e) => [key(e.paperId, e.run), e.reason]));
  const sorted = [...cells].sort((a, b) => (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : a.run - b.run));
  const lines = [EVALUATION_CSV_COLUMNS.join(",")];
  for (const c of sorted) {
    lines.push(
      [
        csvField(c.paperId, true),
        csvField(c.run),
        csvField(c.runGroupId, true),
        csvField(c.state),
        csvField(c.score),
        csvField(counted.get(key(c.paperId, c.run)) ?? null),
        csvField(excluded.get(key(c.paperId, c.run)) ?? null, true),
        csvField(c.invalidLeaves),
        csvField(c.leaves),
        csvField(c.submissionId),
        csvField(c.gradingId),
      ].join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
