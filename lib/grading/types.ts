/**
 * Types of graded trees: PaperBench's `GradedTaskNode` (a rubric node plus `score`,
 * `valid_score`, `explanation`, `judge_metadata`) and the judge-output wrapper
 * (`grader_output.json`). See DESIGN.md, "PaperBench compatibility (exact)" and "Grading model".
 * Pure: no framework, no Node built-ins; shared by server, CLI and browser.
 */

/** Any JSON value (as `JSON.parse` returns it). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** PaperBench's explanation of an internal node (`GradedTaskNode` aggregation). */
export const AGGREGATED_EXPLANATION = "Aggregated score from sub-tasks.";
/** PaperBench's default explanation of a leaf nobody graded. */
export const UNGRADED_EXPLANATION = "not yet graded";

/** One node of a graded tree. */
export interface GradedNode {
  id: string;
  requirements: string;
  /** Non-negative, relative among siblings. */
  weight: number;
  /**
   * In [0, 1]. For a leaf: the verdict (an invalid leaf counts 0 in the aggregate whatever is
   * written here). For an internal node: the weighted mean of its children, recomputed by the
   * parser and by `recomputeScores` (see `GradingScores`).
   */
  score: number;
  /** `false` when the judge could not grade (a judge error); PaperBench's `valid_score`. */
  valid_score: boolean;
  task_category: string | null;
  finegrained_task_category: string | null;
  explanation: string;
  judge_metadata: JsonValue;
  sub_tasks: GradedNode[];
  /** How the file wrote some fields, so that an export writes them back the same way. */
  file?: GradedNodeFileDetail;
}

export interface GradedNodeFileDetail {
  /** `valid_score` was written as a number (PaperBench's `pinn` expected result has `1.0`). */
  validScoreNumber?: number;
  /** The node had a `finegrained_task_category` key (PaperBench's graded trees usually do not). */
  hasFinegrained?: boolean;
}

/** The fields of a PaperBench judge output (`grader_output.json`) around its `graded_task_tree`. */
export interface JudgeOutputMeta {
  judge_type: string;
  /** The file's `score` (the judge's root score). */
  score: number;
  num_leaf_nodes: number;
  num_invalid_leaf_nodes: number;
  graded_at: string;
  /** `null` when absent. */
  completer_config: JsonValue;
  /** `null` when absent. */
  token_usage: JsonValue;
  /** Every key of the wrapper in file order (`graded_task_tree` included), for a faithful export. */
  keyOrder: string[];
  /** Keys PaperBench does not define, with their values, kept as they were. */
  extra: Record<string, JsonValue>;
}

/** Where a problem is (a JSON path from the file's root, `(root)` for the root) and what it is. */
export interface GradingIssue {
  path: string;
  message: string;
}

export const GRADING_WARNING_CODES = [
  /** An internal node's score in the file is not the weighted mean of its children. */
  "score_mismatch",
  /** An invalid leaf carries a non-zero score: it counts 0 in the aggregate. */
  "invalid_leaf_scored",
  /** The wrapper's `score` differs from its tree's root score. */
  "wrapper_score_mismatch",
  /** The wrapper's `num_leaf_nodes` / `num_invalid_leaf_nodes` differ from the tree's. */
  "wrapper_count_mismatch",
  "duplicate_id",
  /** A node key PaperBench does not read; dropped. */
  "unknown_key",
] as const;
export type GradingWarningCode = (typeof GRADING_WARNING_CODES)[number];

export interface GradingWarning extends GradingIssue {
  code: GradingWarningCode;
}

export interface GradedStats {
  nodes: number;
  leaves: number;
  invalidLeaves: number;
  /** Levels from the root; a root alone has depth 1. */
  depth: number;
}
