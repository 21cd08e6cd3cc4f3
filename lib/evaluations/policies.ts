import { numpyMean, standardError } from "@/lib/grading/stats";
import type { Aggregation, EvaluationPolicies, FailureKind, FailurePolicy } from "./schemas";

/** Where one cell (a paper × a run) of an evaluation stands. */
export const CELL_STATES = ["pending", "succeeded", "failed", "timed_out", "invalid_leaves"] as const;
export type CellState = (typeof CELL_STATES)[number];

export interface EvaluationCell {
  paperId: string;
  /** 1-based run of the evaluation. */
  run: number;
  state: CellState;
  /** The grading's root score (invalid leaves at 0, as PaperBench scores them); null when not graded. */
  score: number | null;
  /**
   * Attempts made at this cell, when the pipeline retries it; absent for an ingested result, which
   * has nothing left to retry.
   */
  attempts?: number;
  /** The monitor found a blacklisted site in the agent's log: the `blacklisted` policy decides, whatever the state. */
  flagged?: boolean;
}

export interface CountedCell {
  paperId: string;
  run: number;
  /** The score that enters its run's mean. */
  score: number;
  /** Why it counts as it does, when not as graded: "count as 0". */
  note: string | null;
}

export interface ExcludedCell {
  paperId: string;
  run: number;
  reason: string;
}

export interface PolicyResult {
  aggregation: Aggregation;
  policies: EvaluationPolicies;
  counted: CountedCell[];
  excluded: ExcludedCell[];
  /** Cells a retry policy still has attempts for: neither counted nor excluded yet. */
  retrying: { paperId: string; run: number; attempt: number; of: number }[];
  /** Per run (index 0 is run 1): the mean over its counted cells, null when none counts. */
  runScores: (number | null)[];
  /** Per paper, its best counted score over the runs (best of N). */
  bestPerPaper: Record<string, number | null>;
  /** Mean over runs with a score (or over papers' best, for best of N), and its standard error. */
  mean: number | null;
  se: number | null;
  n: number;
}

const FAILURE_OF: Partial<Record<CellState, FailureKind>> = {
  failed: "reproduction_failed",
  timed_out: "reproduction_timed_out",
  invalid_leaves: "judge_invalid_leaves",
};

const FAILURE_TEXT: Record<FailureKind, string> = {
  reproduction_failed: "reproduction failed",
  reproduction_timed_out: "reproduction timed out",
  judge_invalid_leaves: "judge left invalid leaves",
  blacklisted: "agent's log names a blacklisted site",
};

/** How a policy reads, as the evaluation page and the leaderboard say it. */
export function describePolicy(policy: FailurePolicy): string {
  if (policy === "zero") return "count as 0";
  if (policy === "exclude") return "exclude";
  return `retry up to ${policy.retry}, then exclude`;
}

/**
 * Each run's score from an evaluation's cells under its policies. A failed cell counts as 0
 * ("zero"; for invalid leaves: those leaves at 0, the judge's score as stored), is excluded with
 * its reason ("exclude"), or is retried while attempts are left, then excluded saying so. Pending
 * cells are excluded as not graded yet. A flagged cell (a blacklisted site in the agent's log)
 * counts as 0 or is excluded by the `blacklisted` policy before anything else. Pure: the evaluation page, its export and the CLI share it.
 */
export function applyPolicies(
  cells: readonly EvaluationCell[],
  policies: EvaluationPolicies,
  options: { runs: number; aggregation: Aggregation },
): PolicyResult {
  const counted: CountedCell[] = [];
  const excluded: ExcludedCell[] = [];
  const retrying: PolicyResult["retrying"] = [];
  for (const cell of cells) {
    const at = { paperId: cell.paperId, run: cell.run };
    if (cell.flagged) {
      // A broken rule voids the run however far it got; it is never retried.
      if (policies.blacklisted === "exclude") excluded.push({ ...at, reason: `excluded: ${FAILURE_TEXT.blacklisted}` });
      else counted.push({ ...at, score: 0, note: `count as 0: ${FAILURE_TEXT.blacklisted}` });
      continue;
    }
    if (cell.state === "pending") {
      excluded.push({ ...at, reason: "excluded: not graded yet" });
      continue;
    }
    const failure = FAILURE_OF[cell.state];
    if (!failure) {
      if (cell.score === null) excluded.push({ ...at, reason: "excluded: no grading" });
      else counted.push({ ...at, score: cell.score, note: null });
      continue;
    }
    const policy = policies[failure];
    const what = FAILURE_TEXT[failure];
    if (policy === "zero") {
      if (failure === "judge_invalid_leaves")
        counted.push({ ...at, score: cell.score ?? 0, note: `count as 0: ${what}, scored 0` });
      else counted.push({ ...at, score: 0, note: `count as 0: ${what}` });
    } else if (policy === "exclude") {
      excluded.push({ ...at, reason: `excluded: ${what}` });
    } else if (cell.attempts === undefined) {
      excluded.push({
        ...at,
        reason: `excluded: ${what} (retry up to ${policy.retry} asked; an ingested result has nothing to retry)`,
      });
    } else if (cell.attempts <= policy.retry) {
      retrying.push({ ...at, attempt: cell.attempts, of: policy.retry + 1 });
    } else {
      excluded.push({
        ...at,
        reason: `excluded: ${what} after ${policy.retry} ${policy.retry === 1 ? "retry" : "retries"}`,
      });
    }
  }

  const perRun: number[][] = Array.from({ length: options.runs }, () => []);
  const perPaper = new Map<string, number[]>();
  for (const c of counted) {
    if (c.run >= 1 && c.run <= options.runs) perRun[c.run - 1].push(c.score);
    const list = perPaper.get(c.paperId) ?? [];
    list.push(c.score);
    perPaper.set(c.paperId, list);
  }
  const runScores = perRun.map((scores) => (scores.length > 0 ? numpyMean(scores) : null));
  const bestPerPaper: Record<string, number | null> = {};
  for (const paperId of new Set(cells.map((c) => c.paperId))) {
    const scores = perPaper.get(paperId);
    bestPerPaper[paperId] = scores && scores.length > 0 ? Math.max(...scores) : null;
  }
  const sample = (options.aggregation === "mean" ? runScores : Object.values(bestPerPaper)).filter(
    (s): s is number => s !== null,
  );
  return {
    aggregation: options.aggregation,
    policies,
    counted,
    excluded,
    retrying,
    runScores,
    bestPerPaper,
    mean: sample.length > 0 ? numpyMean(sample) : null,
    se: standardError(sample),
    n: sample.length,
  };
}
