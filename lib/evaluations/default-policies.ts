import type { EvaluationPolicies, FailurePolicy } from "./schemas";

/**
 * The evaluation failure policies' defaults, which are PaperBench's: the one place they are
 * written. The policies decide only a cell with nothing to judge, since every reproduction that
 * ran is judged (`lib/jobs/judge-source.ts`), and PaperBench scores each of those cases 0:
 * - no executed submission (the runner or its machine failed before reproduce.sh ran, the archive
 *   is missing, the job was cancelled): `PBTask.grade` (paperbench/nano/task.py) skips the judge
 *   when reproduction left no metadata and saves `score=0.0`; with no submission at all,
 *   `early_exit_grade` saves 0.0. Nothing is retried or dropped: `zero`, for failed and timed out.
 * - invalid leaves: PaperBench's judge keeps such a leaf at score 0 in the tree and its score
 *   stands (`JudgeOutput.num_invalid_leaf_nodes` only reports them): `zero`.
 * - blacklisted: the monitor's flag makes `grade` return `early_exit_grade(...)`, score 0: `zero`.
 */
export const DEFAULT_POLICIES: EvaluationPolicies = { reproduction_failed: "zero", reproduction_timed_out: "zero", judge_invalid_leaves: "zero", blacklisted: "zero" };

const same = (a: FailurePolicy | undefined, b: FailurePolicy) => JSON.stringify(a) === JSON.stringify(b);

/** Whether an evaluation's policies are PaperBench's defaults, every one (a score made under them is PaperBench's method). */
export function isPaperbenchDefaultPolicies(policies: EvaluationPolicies): boolean {
  return (Object.keys(DEFAULT_POLICIES) as (keyof EvaluationPolicies)[]).every((kind) => same(policies[kind], DEFAULT_POLICIES[kind]));
}
