import { MethodBadge } from "@/components/leaderboard/row-badges";
import { ProvenanceLine } from "@/components/review/provenance-line";
import type { EvaluationMatrix } from "@/lib/evaluations/matrix";
import { isPlaceholderJudge } from "@/lib/evaluations/provenance";

/**
 * How the evaluation's scores were made: the leaderboard's mark ("PaperBench method", "efficient
 * mode", "placeholder judge — not public", …) and each distinct provenance of its graded cells,
 * each a compact line with every field on hover or expand. Before any cell is graded, the judge
 * it will grade with.
 */
export function EvaluationScoring({ matrix }: { matrix: EvaluationMatrix }) {
  const { scoring } = matrix;
  const judge = matrix.evaluation.judgeConfig;
  const placeholderJudge = judge !== null && isPlaceholderJudge(judge.kind);
  return (
    <div className="space-y-1" data-testid="evaluation-scoring">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-zinc-500">How this is scored:</span>
        {scoring.method.kind === "none" ? (
          <span className="text-zinc-600" data-testid="evaluation-scoring-pending">
            nothing graded yet
            {judge
              ? `; the judge will be ${judge.name} (${isPlaceholderJudge(judge.kind) ? "placeholder judge" : `${judge.mode} mode`})`
              : ""}
          </span>
        ) : (
          <MethodBadge method={scoring.method} />
        )}
      </div>
      {scoring.provenances.map((p, i) => (
        <ProvenanceLine key={i} provenance={p} testId="evaluation-provenance" />
      ))}
      {placeholderJudge && (
        <p
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="evaluation-placeholder-note"
        >
          {judge.name} is a placeholder judge: its scores are visible to members only and never reach the public
          leaderboard.
        </p>
      )}
    </div>
  );
}
