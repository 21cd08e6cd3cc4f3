/**
 * How the leaderboard says which policy produced an evaluation's number, in one line:
 * "mean of 3 runs · every reproduction that ran is judged · a reproduction with nothing to judge
 * counts 0 · invalid leaves excluded (2)". Every reproduction that ran is judged, failed or timed
 * out too (as PaperBench does), so the reproduction policies only decide what left nothing to
 * judge. Every failure kind is named (a policy is never silent), the two reproduction kinds
 * together when their policies agree; "(k)": cells of the board that policy applied to; the
 * policies are said to be PaperBench's defaults when they are. Pure.
 */
import { isPaperbenchDefaultPolicies } from "./default-policies";
import type { CellState } from "./policies";
import type { Aggregation, EvaluationPolicies, FailurePolicy } from "./schemas";

function policyVerb(policy: FailurePolicy, plural: boolean): string {
  if (policy === "zero") return plural ? "count 0" : "counts 0";
  if (policy === "exclude") return "excluded";
  return `retried up to ${policy.retry}, then excluded`;
}

const samePolicy = (a: FailurePolicy, b: FailurePolicy) => JSON.stringify(a) === JSON.stringify(b);

export function aggregationLabel(aggregation: Aggregation, runs: number): string {
  return aggregation === "best_of_n" ? `best of ${runs}` : `mean of ${runs} ${runs === 1 ? "run" : "runs"}`;
}

export function policyLabel(input: {
  aggregation: Aggregation;
  runs: number;
  policies: EvaluationPolicies;
  /** The states of the cells the number was computed from. */
  states: readonly CellState[];
  /** Cells whose grading is under an open blind review (left out until it is done). */
  pendingReview?: number;
  /** Cells the monitor flagged (a blacklisted site in the agent's log). */
  flagged?: number;
}): string {
  const count = (state: CellState) => input.states.filter((s) => s === state).length;
  const n = (k: number) => (k > 0 ? ` (${k})` : "");
  const { policies } = input;
  const parts = [
    aggregationLabel(input.aggregation, input.runs),
    "every reproduction that ran is judged, failed or timed out too",
  ];
  const failed = count("failed");
  const timedOut = count("timed_out");
  if (samePolicy(policies.reproduction_failed, policies.reproduction_timed_out)) {
    parts.push(
      `a reproduction with nothing to judge ${policyVerb(policies.reproduction_failed, false)}${n(failed + timedOut)}`,
    );
  } else {
    parts.push(
      `a failed reproduction with nothing to judge ${policyVerb(policies.reproduction_failed, false)}${n(failed)}`,
    );
    parts.push(
      `a timed-out one with nothing to judge ${policyVerb(policies.reproduction_timed_out, false)}${n(timedOut)}`,
    );
  }
  parts.push(`invalid leaves ${policyVerb(policies.judge_invalid_leaves, true)}${n(count("invalid_leaves"))}`);
  const blacklisted = (policies as Partial<Record<string, FailurePolicy>>).blacklisted;
  if (blacklisted) parts.push(`blacklisted site in the log ${policyVerb(blacklisted, false)}${n(input.flagged ?? 0)}`);
  if (isPaperbenchDefaultPolicies(policies)) parts.push("PaperBench's default policies");
  const pending = count("pending");
  if (pending > 0) parts.push(`${pending} not graded yet`);
  if (input.pendingReview) parts.push(`${input.pendingReview} awaiting blind review`);
  return parts.join(" · ");
}
