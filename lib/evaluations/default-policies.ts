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
// Shaped as `EvaluationPolicies` (./schemas.ts, whose zod schema takes its default from here, so checks it).
export const DEFAULT_POLICIES = {
  reproduction_failed: "zero",
  reproduction_timed_out: "zero",
  judge_invalid_leaves: "zero",
  blacklisted: "zero",
} as const;

type PolicyKind = keyof typeof DEFAULT_POLICIES;

/**
 * Whether an evaluation's policies are PaperBench's defaults, every one (a score made under them is
 * PaperBench's method). A kind stored before it existed (`blacklisted`) reads as its default, as
 * the schema reads it. No policies (a grading outside an evaluation) are not PaperBench's defaults.
 */
export function isPaperbenchDefaultPolicies(
  policies: { readonly [K in PolicyKind]?: unknown } | null | undefined,
): boolean {
  if (!policies) return false;
  return (Object.keys(DEFAULT_POLICIES) as PolicyKind[]).every(
    (kind) => JSON.stringify(policies[kind] ?? DEFAULT_POLICIES[kind]) === JSON.stringify(DEFAULT_POLICIES[kind]),
  );
}
