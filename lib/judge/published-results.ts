/**
 * PaperBench's published JudgeEval results: each judge's F1 against the human gradings of its
 * JudgeEval set and its average cost of grading one paper's submission, as the paper reports
 * them. Shown beside the judge lab's own measurements, marked as published figures: they were
 * measured by OpenAI on their JudgeEval set, not by this studio.
 */

export const PAPERBENCH_JUDGE_EVAL_SOURCE = {
  title: "PaperBench: Evaluating AI's Ability to Replicate AI Research",
  authors: "Starace et al. (OpenAI)",
  year: 2025,
  url: "https://arxiv.org/abs/2504.01848",
  where: "JudgeEval results: F1 against human grading and average cost per paper",
} as const;

export interface PublishedJudgeResult {
  judge: string;
  /** Macro F1 against the human gradings. */
  f1: number;
  /** US dollars per paper graded; null for the random baseline (no model calls). */
  costPerPaperUsd: number | null;
}

export const PAPERBENCH_PUBLISHED_JUDGES: readonly PublishedJudgeResult[] = [
  { judge: "o3-mini-high", f1: 0.83, costPerPaperUsd: 66 },
  { judge: "o1-high", f1: 0.84, costPerPaperUsd: 830 },
  { judge: "o1-mini-high", f1: 0.78, costPerPaperUsd: 72 },
  { judge: "gpt-4o", f1: 0.73, costPerPaperUsd: 120 },
  { judge: "gpt-4o-mini", f1: 0.59, costPerPaperUsd: 8 },
  { judge: "random", f1: 0.5, costPerPaperUsd: null },
];
