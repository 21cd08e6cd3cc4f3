import { formatMeanSe, formatPercent, plural } from "@/lib/leaderboard/format";
import type { PolicyResult } from "@/lib/evaluations/policies";

/**
 * What the matrix adds up to under the evaluation's policies: each run's score (the mean over its
 * papers), the mean ± standard error (over runs, or over papers' best for best of N), then every
 * cell left out with its reason and every cell counted otherwise than graded, so no number hides
 * how it was made.
 */
export function EvaluationResults({ result }: { result: PolicyResult }) {
  const best = result.aggregation === "best_of_n";
  const adjusted = result.counted.filter((c) => c.note !== null);
  return (
    <section
      aria-labelledby="results-title"
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4"
      data-testid="evaluation-results"
    >
      <div className="flex flex-wrap items-baseline gap-x-6 gap-y-1">
        <h2 id="results-title" className="text-base font-semibold">
          Results
        </h2>
        <p className="text-sm text-zinc-600">
          {best
            ? "Best of N: each paper's best counted run, averaged over papers"
            : "Mean over runs of each run's mean over its papers"}
          , ± the standard error ({plural(result.n, best ? "paper" : "run")}).
        </p>
        <p className="ml-auto text-2xl font-semibold tabular-nums" data-testid="evaluation-mean">
          {formatMeanSe(result.mean, result.se)}
        </p>
      </div>
      <dl className="flex flex-wrap gap-2" data-testid="run-scores">
        {result.runScores.map((score, i) => (
          <div
            key={i}
            className="rounded-md border border-zinc-200 px-3 py-1.5 text-center"
            data-testid="run-score"
            data-run={i + 1}
          >
            <dt className="text-xs text-zinc-500">Run {i + 1}</dt>
            <dd className="font-mono text-sm tabular-nums">{formatPercent(score)}</dd>
          </div>
        ))}
      </dl>
      {best && (
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="best-per-paper">
          {Object.entries(result.bestPerPaper).map(([paperId, score]) => (
            <div key={paperId} className="flex gap-1.5">
              <dt className="font-mono text-xs leading-5 text-zinc-500">{paperId}</dt>
              <dd className="tabular-nums">{formatPercent(score)}</dd>
            </div>
          ))}
        </dl>
      )}
      {result.retrying.length > 0 && (
        <p className="text-sm text-zinc-600" data-testid="retrying-cells">
          Being retried, not counted yet:{" "}
          {result.retrying.map((r) => `${r.paperId} run ${r.run} (attempt ${r.attempt + 1} of ${r.of})`).join("; ")}.
        </p>
      )}
      <CellNotes
        title={`Excluded (${result.excluded.length})`}
        empty="No cell is excluded."
        testId="excluded-cells"
        rows={result.excluded.map((e) => ({ ...e, text: e.reason }))}
      />
      {adjusted.length > 0 && (
        <CellNotes
          title={`Counted otherwise than graded (${adjusted.length})`}
          empty=""
          testId="adjusted-cells"
          rows={adjusted.map((c) => ({ ...c, text: c.note ?? "" }))}
        />
      )}
    </section>
  );
}

function CellNotes({
  title,
  empty,
  rows,
  testId,
}: {
  title: string;
  empty: string;
  rows: { paperId: string; run: number; text: string }[];
  testId: string;
}) {
  return (
    <div data-testid={testId}>
      <h3 className="text-sm font-medium text-zinc-800">{title}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-500">{empty}</p>
      ) : (
        <ul className="mt-1 max-h-48 space-y-0.5 overflow-auto text-sm">
          {rows.map((r) => (
            <li
              key={`${r.paperId}\u0000${r.run}`}
              className="flex gap-2"
              data-testid="cell-note"
              data-paper={r.paperId}
              data-run={r.run}
            >
              <span className="shrink-0 font-mono text-xs leading-5 text-zinc-500">
                {r.paperId} · run {r.run}
              </span>
              <span className="text-zinc-700">{r.text}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
