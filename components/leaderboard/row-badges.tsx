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

/** Which rule produced the row's number: each run's grading as it stands (`AS_GRADED_BASIS`), or the evaluation's aggregation and policies. */
export function BasisLine({ agent }: { agent: Pick<LeaderboardAgentRow, "basis"> }) {
  return (
    <div className="text-xs text-zinc-500" data-testid="row-policy" data-basis={agent.basis.kind}>
      {agent.basis.label}
    </div>
  );
}

const METHOD_TITLES: Partial<Record<LeaderboardAgentRow["method"]["kind"], string>> = {
  paperbench:
    "Judged as PaperBench judges: a model judge in paperbench mode (PaperBench's own prompts and flow) under PaperBench's default failure policies",
  placeholder:
    "Graded by a placeholder judge (Dummy or Random): its scores say nothing about the submissions. Members see it; the public leaderboard never shows it",
  efficient:
    "Judged in the studio's efficient mode: its own prompts, not PaperBench's; not directly comparable with PaperBench's published scores",
  custom_policies: "Judged in paperbench mode, but the evaluation's failure policies are not PaperBench's defaults",
};

/** How the row's gradings were made: "PaperBench method", "efficient mode", "placeholder judge — not public", … */
export function MethodBadge({ method }: { method: LeaderboardAgentRow["method"] }) {
  const tone =
    method.kind === "paperbench"
      ? "bg-indigo-50 text-indigo-800"
      : method.kind === "placeholder"
        ? "bg-red-50 text-red-800"
        : "bg-zinc-100 text-zinc-700";
  return (
    <span
      className={`inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ${tone}`}
      title={METHOD_TITLES[method.kind] ?? method.label}
      data-testid="method-badge"
      data-method={method.kind}
    >
      {method.label}
    </span>
  );
}
