/**
 * The leaderboard as the API and the page give it (see `server/leaderboard/leaderboard.ts`):
 * scores, agent and paper names only. Shared by the server and the browser.
 */
import type { Agreement } from "@/lib/evaluations/agreement";
import type { CellState } from "@/lib/evaluations/policies";
import type { Aggregation, EvaluationSetup } from "@/lib/evaluations/schemas";
import { VARIANTS, type Variant } from "@/lib/grading/variant";
import type { ScoringMethod } from "@/lib/evaluations/scoring-method";

/** The variants the board offers: every variant. */
export const LEADERBOARD_VARIANTS: readonly Variant[] = VARIANTS;

/** A row without an evaluation: its runs' grading scores as they stand, human reviewers' changes included. */
export const AS_GRADED_BASIS = {
  kind: "as_graded",
  label: "each run's grading score, reviewers' changes included",
} as const;

export interface LeaderboardExcludedRun {
  run: number;
  reason: "incomplete" | "duplicate_papers" | "pending_review";
  missingPapers: string[];
  /** Papers whose grading is under an open blind review (`pending_review`): no score of theirs is published. */
  pendingPapers: string[];
  /** "missing 2 of 20 papers: bbox, fre" */
  message: string;
}

/**
 * Which rule produced a row's number. `as_graded`: each run's counted gradings as they are
 * (PaperBench's leaderboard), labelled in plain words (`AS_GRADED_BASIS`). `evaluation`: the agent's evaluation on the board's papers and
 * variant, its policies and aggregation applied to its cells (`lib/evaluations/policies.ts`).
 */
export type LeaderboardBasis =
  | typeof AS_GRADED_BASIS
  | {
      kind: "evaluation";
      /** "mean of 3 runs · every reproduction that ran is judged, failed or timed out too · a reproduction with nothing to judge counts 0 · invalid leaves excluded (2)" */
      label: string;
      evaluationId: string;
      evaluationName: string;
      aggregation: Aggregation;
      runs: number;
      /** Each failure kind's policy as it reads ("count as 0"). */
      policies: Record<string, string>;
      /** The agent's setup PaperBench asks researchers to report. */
      setup: EvaluationSetup;
      /** PaperBench's "resources provided": datasets and models handed to the agent. */
      resourcesProvided: boolean;
      /** Cells of the board left out, with the reason (a policy's, not graded yet, a blind review open). */
      excludedCells: { paperId: string; run: number; state: CellState; reason: string }[];
    };

export interface LeaderboardAgentRow {
  /** 1 for the best; agents with the same mean share a rank; null without a complete run, and for a human baseline. */
  rank: number | null;
  agentId: string;
  name: string;
  model: string | null;
  scaffold: string | null;
  /** An agent of the demo seed: its results are synthetic. */
  isDemo: boolean;
  /**
   * Mean over complete runs of the run's mean root score over the split's papers. A run with a
   * grading under an open blind review waits (`excludedRuns`, `pending_review`); null when no
   * run counts (yet).
   */
  mean: number | null;
  /** Standard error over complete runs (sample std, ddof 1, / √n); null for fewer than two runs. */
  stdErr: number | null;
  nRuns: number;
  /** Each complete run's score, in run order. */
  runs: { run: number; score: number }[];
  excludedRuns: LeaderboardExcludedRun[];
  /**
   * Per paper of the split, over every run that graded it (complete or not), but for gradings
   * under an open blind review: `pendingRuns` counts those, without their scores.
   */
  perPaper: { paperId: string; mean: number | null; stdErr: number | null; nRuns: number; pendingRuns: number }[];
  judgeModels: string[];
  /** Gradings counted in the row (complete runs × papers), and how many of them were reviewed. */
  countedGradings: number;
  reviewedGradings: number;
  /** Every counted grading was reviewed by a human. */
  humanReviewed: boolean;
  /**
   * Papers of the split some run graded with a published score, of the split's papers, and the
   * mean of those papers' means: an unranked agent (no complete run) is shown with these, apart
   * from the ranked ones.
   */
  coverage: { papers: number; of: number; mean: number | null };
  /** Which rule produced the number: as graded, or an evaluation's policies and aggregation. */
  basis: LeaderboardBasis;
  /**
   * How the counted gradings were made: "PaperBench method" (a model judge in paperbench mode
   * under PaperBench's default policies), "efficient mode", …; `placeholder` rows (Dummy,
   * Random) are on the members' board only, unranked.
   */
  method: ScoringMethod;
  /**
   * A human baseline (an evaluation whose agent is a person, PaperBench's ML-PhD baseline): sorted
   * in by its score with no rank, so agents' ranks are among agents.
   */
  isHuman: boolean;
  /** Judge–human agreement on the evaluation's leaves sampled for review; null without reviewed samples. */
  agreement: Agreement | null;
}

export interface LeaderboardSplitOption {
  name: string;
  source: "data" | "studio";
  paperCount: number;
  /** Papers of the split graded in the studio in the chosen variant. */
  gradedPaperCount: number;
}

export interface LeaderboardPaper {
  id: string;
  /** Null for a paper of the split the studio does not have. */
  title: string | null;
}

export interface LeaderboardView {
  /** The split shown, or on a per-paper board the split it was opened from. */
  split: string;
  variant: Variant;
  /** The per-paper board's paper: every agent's runs on it. Null: the split's board. */
  paper: LeaderboardPaper | null;
  splits: LeaderboardSplitOption[];
  variants: readonly Variant[];
  /** The board's papers: the split's in its order, or the per-paper board's one. */
  papers: LeaderboardPaper[];
  /** Papers graded in the variant, by id: the per-paper boards there are. */
  gradedPapers: LeaderboardPaper[];
  /** Ranked agents first, then the unranked (see `LeaderboardAgentRow.coverage`). */
  agents: LeaderboardAgentRow[];
  /** Runs left out across agents, by reason. */
  excluded: { runs: number; incomplete: number; duplicatePapers: number; pendingReview: number };
  /** When the newest counted grading was stored. */
  latestGradingAt: string | null;
  /**
   * The public board: gradings of its papers left out because a placeholder judge (Dummy,
   * Random) made them, so an empty board can say why. Always 0 on the members' board, which shows them.
   */
  placeholderHidden: number;
}

export interface LeaderboardAgentGradings {
  agentId: string;
  split: string;
  variant: Variant;
  /** Papers of the split the user may see, each with the counted grading of every run. */
  papers: {
    paperId: string;
    runs: {
      run: number;
      gradingId: string;
      kind: "judge" | "human";
      /** Null when the grading's score is hidden from this user (a grader whose assignment hides a verdict). */
      score: number | null;
      reviewed: boolean;
      /** Under an open blind review: the public board shows it as pending. */
      pendingReview: boolean;
    }[];
  }[];
  /** Papers of the split the user may not see (their gradings are not listed). */
  hiddenPapers: number;
}
