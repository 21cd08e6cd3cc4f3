import type { GradingProvenance } from "@/lib/evaluations/provenance";
import { isPlaceholderJudge, provenanceDetails, provenanceSummary } from "@/lib/evaluations/provenance";

/**
 * "How this was scored", in one compact line (judge · mode · prompts · policies) with every field
 * on hover and on expand: the configuration frozen when the grading started, not as it is now.
 */
export function ProvenanceLine({
  provenance,
  testId = "provenance-line",
}: {
  provenance: GradingProvenance;
  testId?: string;
}) {
  const details = provenanceDetails(provenance);
  const placeholder = isPlaceholderJudge(provenance.judgeKind);
  return (
    <details className="group text-xs text-zinc-500" data-testid={testId} data-placeholder={placeholder}>
      <summary
        className="cursor-pointer list-none truncate"
        title={details.map((d) => `${d.label}: ${d.value}`).join("\n")}
      >
        <span className="text-zinc-400">How this was scored: </span>
        <span className={placeholder ? "font-medium text-red-700" : ""}>{provenanceSummary(provenance)}</span>
        <span className="ml-1 text-zinc-400 group-open:hidden">▸</span>
      </summary>
      <dl
        className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-md border border-zinc-200 bg-white p-2"
        data-testid={`${testId}-details`}
      >
        {details.map((d) => (
          <div key={d.label} className="contents">
            <dt className="text-zinc-400">{d.label}</dt>
            <dd className="break-all text-zinc-700">{d.value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
