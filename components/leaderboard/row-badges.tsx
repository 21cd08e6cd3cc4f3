import { UserRound } from "lucide-react";
import { formatAgreement } from "@/lib/evaluations/agreement";
import type { LeaderboardAgentRow } from "@/lib/leaderboard/types";

/** A human baseline's mark: PaperBench's ML-PhD attempts, sorted in by score, not ranked. */
export function HumanBaselineBadge() {
  return (
    <span
      className="inline-flex items-center gap-1 rounded bg-sky-50 px-1.5 py-0.5 text-xs font-medium text-sky-800"
      title="Human baseline: a person's attempts, shown for comparison; agents are ranked among agents"
      data-testid="human-baseline-badge"
    >
      <UserRound className="h-3.5 w-3.5" aria-hidden />
      human baseline
    </span>
  );
}

/** "judge agreement 0.84 ± 0.03 on 400 leaves": F1 of the judge against humans on the sampled leaves, ± half the 95% interval. */
export function AgreementBadge({ agreement }: { agreement: NonNullable<LeaderboardAgentRow["agreement"]> }) {
  return (
    <span
      className="inline-flex items-center rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-900"
      title={`F1 of the judge's verdicts against human scores on leaves sampled for review; 95% bootstrap interval ${agreement.ciLow.toFixed(2)}–${agreement.ciHigh.toFixed(2)}`}
      data-testid="agreement-badge"
    >
      {formatAgreement(agreement)}
    </span>
  );
}

/** Which rule produced the row's number: "as graded", or the evaluation's aggregation and policies. */
export function BasisLine({ agent }: { agent: LeaderboardAgentRow }) {
  return (
    <div className="text-xs text-zinc-500" data-testid="row-policy" data-basis={agent.basis.kind}>
      {agent.basis.label}
    </div>
  );
}
