/**
 * Whether an evaluation's failure policies are PaperBench's defaults: what the leaderboard's
 * "PaperBench method" mark requires besides a model judge in paperbench mode. Pure.
 *
 * To merge with judge-every-run's isPaperbenchDefaultPolicies: that branch changes the policies'
 * shape (only what has nothing to judge is decided by a policy) and writes PaperBench's defaults
 * in lib/; until then this is the rule over the current shape, where PaperBench's own scripts
 * count a failed or timed-out reproduction as the judge scored it (mostly 0), keep invalid leaves
 * at 0 and count a flagged run 0: every policy `zero` (`DEFAULT_POLICIES`).
 */
import { DEFAULT_POLICIES, FAILURE_KINDS, type EvaluationPolicies } from "./schemas";

export function isPaperbenchDefaultPolicies(policies: Partial<EvaluationPolicies> | null | undefined): boolean {
  if (!policies) return false;
  return FAILURE_KINDS.every((kind) => JSON.stringify(policies[kind] ?? DEFAULT_POLICIES[kind]) === JSON.stringify(DEFAULT_POLICIES[kind]));
}
