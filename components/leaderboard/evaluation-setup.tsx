import type { LeaderboardBasis } from "@/lib/leaderboard/types";

type EvaluationBasis = Extract<LeaderboardBasis, { kind: "evaluation" }>;

const POLICY_KIND_LABEL: Record<string, string> = {
  reproduction_failed: "nothing to judge (reproduction failed)",
  reproduction_timed_out: "nothing to judge (timed out)",
};

/**
 * The setup behind an evaluation's row, as PaperBench asks researchers to report it (time limit,
 * hardware, scaffold, tools) with "resources provided", each failure kind's policy and the cells
 * the number leaves out with their reasons.
 */
export function EvaluationSetup({ basis }: { basis: EvaluationBasis }) {
  const { setup } = basis;
  const facts: [string, string][] = [
    ["Evaluation", basis.evaluationName],
    ["Aggregation", basis.aggregation === "best_of_n" ? `best of ${basis.runs}` : `mean of ${basis.runs} runs`],
    ["Time limit", setup.time_limit_h === null ? "not reported" : `${setup.time_limit_h} h`],
    ["Hardware", setup.hardware ?? "not reported"],
    ["Scaffold", setup.scaffold ?? "not reported"],
    ["Tools", setup.tools ?? "not reported"],
    [
      "Resources provided",
      basis.resourcesProvided ? "yes: datasets and models handed to the agent (acquisition leaves weigh 0)" : "no",
    ],
  ];
  return (
    <div
      className="space-y-2 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm"
      data-testid="evaluation-setup"
    >
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-0.5">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-500">{label}</dt>
            <dd className="text-zinc-900" data-testid={`setup-${label.toLowerCase().replaceAll(" ", "-")}`}>
              {value}
            </dd>
          </div>
        ))}
        {Object.entries(basis.policies).map(([kind, policy]) => (
          <div key={kind} className="contents">
            <dt className="text-zinc-500">{POLICY_KIND_LABEL[kind] ?? kind.replaceAll("_", " ")}</dt>
            <dd className="text-zinc-900">{policy}</dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-zinc-500" data-testid="setup-judged-runs">
        Every reproduction that ran was judged, even one that exited non-zero or timed out, as PaperBench does; the
        reproduction policies above apply only to runs that left nothing to judge.
      </p>
      {basis.excludedCells.length > 0 && (
        <div data-testid="excluded-cells">
          <div className="font-medium text-zinc-700">Cells left out</div>
          <ul className="list-disc pl-5 text-zinc-700">
            {basis.excludedCells.map((c) => (
              <li key={`${c.paperId}/${c.run}`}>
                {c.paperId} run {c.run}: {c.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
