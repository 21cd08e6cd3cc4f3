"use client";

import Link from "next/link";
import type { ConfusionMatrix, MetricSummary } from "@/lib/judge/eval/metrics";
import type { JudgeEvalStudioReport } from "@/lib/judge/eval/types";

const fmt = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

/** The metrics (overall, per task category), confusion matrix, per-submission table and disagreements of a JudgeEval. */
export function JudgeEvalReportView({ report }: { report: JudgeEvalStudioReport }) {
  const excludedTotal = report.excluded.invalid_judge + report.excluded.invalid_human + report.excluded.unmatched;
  return (
    <div className="space-y-6" data-testid="judge-eval-report">
      <section className="grid gap-3 sm:grid-cols-5" data-testid="judge-eval-overall">
        <Metric label="Accuracy" value={fmt(report.overall.accuracy)} />
        <Metric label="Precision" value={fmt(report.overall.precision)} hint="macro over 0 and 1" />
        <Metric label="Recall" value={fmt(report.overall.recall)} hint="macro over 0 and 1" />
        <Metric label="F1" value={fmt(report.overall.f1)} hint="macro over 0 and 1" />
        <Metric
          label="Leaves"
          value={report.overall.num_samples.toLocaleString("en")}
          hint={`${report.overall.num_positives} met by the human's grading`}
        />
      </section>
      {(excludedTotal > 0 || report.skipped.length > 0) && (
        <p className="text-sm text-zinc-600" data-testid="judge-eval-excluded">
          Left out:{" "}
          {[
            report.excluded.invalid_judge > 0 &&
              `${report.excluded.invalid_judge} leaves the judge could not grade (invalid)`,
            report.excluded.invalid_human > 0 && `${report.excluded.invalid_human} leaves without a valid human score`,
            report.excluded.unmatched > 0 && `${report.excluded.unmatched} leaves the human grading does not have`,
            report.skipped.length > 0 &&
              `${report.skipped.length} submissions with scores other than 0 or 1 (${report.skipped.map((s) => s.message).join("; ")})`,
          ]
            .filter(Boolean)
            .join("; ")}
          .
        </p>
      )}

      <div className="grid gap-6 lg:grid-cols-[1fr_auto]">
        <section className="rounded-lg border border-zinc-200 bg-white p-4">
          <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-zinc-500">By task category</h3>
          <MetricsTable rows={[["Overall", report.overall], ...Object.entries(report.stratified)]} />
        </section>
        <section className="rounded-lg border border-zinc-200 bg-white p-4">
          <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-zinc-500">Confusion matrix</h3>
          <Confusion matrix={report.confusion} />
        </section>
      </div>

      <section className="rounded-lg border border-zinc-200 bg-white p-4">
        <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-zinc-500">Per submission</h3>
        <table className="w-full text-sm" data-testid="judge-eval-pairs">
          <thead className="text-left text-xs uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="py-1 pr-3">Submission</th>
              <th className="py-1 pr-3">Judge</th>
              <th className="py-1 pr-3 text-right">Accuracy</th>
              <th className="py-1 pr-3 text-right">F1</th>
              <th className="py-1 pr-3 text-right">Leaves</th>
              <th className="py-1 pr-3 text-right">Disagreements</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {report.pairs.map((p) => (
              <tr key={p.candidate.submissionId}>
                <td className="py-1 pr-3">
                  <span className="font-mono text-xs">{p.candidate.paperId}</span> · {p.candidate.agentName} · run{" "}
                  {p.candidate.runIndex}
                  {p.candidate.variant === "code-dev" ? " · Code-Dev" : ""}
                  <span className="ml-2 text-xs text-zinc-500">
                    {p.candidate.truth === "review" ? "vs its review" : "vs human grading"}
                  </span>
                </td>
                <td className="py-1 pr-3 font-mono text-xs">{p.candidate.judgeModel ?? "—"}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{fmt(p.overall.accuracy)}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{fmt(p.overall.f1)}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{p.overall.num_samples}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{p.disagreements}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="judge-eval-disagreements">
        <h3 className="mb-1 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Disagreements ({report.disagreementCount.toLocaleString("en")})
        </h3>
        <p className="mb-3 text-xs text-zinc-500">
          Ranked by the leaf&apos;s effective share of the final score: how much getting it right would move the
          submission&apos;s score.
          {report.disagreementCount > report.disagreements.length &&
            ` The first ${report.disagreements.length} are listed.`}
        </p>
        {report.disagreements.length === 0 ? (
          <p className="text-sm text-zinc-500">The judge agrees with the human on every compared leaf.</p>
        ) : (
          <ol className="space-y-2">
            {report.disagreements.map((d) => (
              <li
                key={`${d.judgeGradingId}:${d.nodeKey}`}
                className="rounded-md border border-zinc-100 px-3 py-2"
                data-testid="judge-eval-disagreement"
              >
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-500">
                  <span className="rounded bg-indigo-50 px-1.5 py-0.5 font-medium tabular-nums text-indigo-700">
                    {pct(d.share)} of the score
                  </span>
                  <span>
                    human <strong className="text-zinc-800">{d.human}</strong> · judge{" "}
                    <strong className="text-zinc-800">{d.judge}</strong>
                  </span>
                  <span>{d.category}</span>
                  <span className="font-mono">{d.paperId}</span>
                  <span>
                    {d.agentName} · run {d.runIndex}
                  </span>
                  <Link
                    href={`/gradings/${d.judgeGradingId}?leaf=${d.nodeKey}`}
                    className="ml-auto text-indigo-700 hover:underline"
                  >
                    Open grading
                  </Link>
                </div>
                <p className="mt-1 text-sm text-zinc-800">{d.requirements}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function Metric({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-3 py-2">
      <div className="text-[11px] font-medium uppercase tracking-wide text-zinc-500">{label}</div>
      <div className="text-xl font-semibold tabular-nums text-zinc-900" data-metric={label.toLowerCase()}>
        {value}
      </div>
      {hint && <div className="text-xs text-zinc-500">{hint}</div>}
    </div>
  );
}

function MetricsTable({ rows }: { rows: [string, MetricSummary][] }) {
  return (
    <table className="w-full text-sm" data-testid="judge-eval-categories">
      <thead className="text-left text-xs uppercase tracking-wide text-zinc-500">
        <tr>
          <th className="py-1 pr-3" />
          <th className="py-1 pr-3 text-right">Accuracy</th>
          <th className="py-1 pr-3 text-right">Precision</th>
          <th className="py-1 pr-3 text-right">Recall</th>
          <th className="py-1 pr-3 text-right">F1</th>
          <th className="py-1 pr-3 text-right">Leaves</th>
          <th className="py-1 text-right">Met</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">
        {rows.map(([name, m]) => (
          <tr key={name} data-category={name}>
            <td className="py-1 pr-3 font-medium">{name}</td>
            <td className="py-1 pr-3 text-right tabular-nums">{fmt(m.accuracy)}</td>
            <td className="py-1 pr-3 text-right tabular-nums">{fmt(m.precision)}</td>
            <td className="py-1 pr-3 text-right tabular-nums">{fmt(m.recall)}</td>
            <td className="py-1 pr-3 text-right tabular-nums">{fmt(m.f1)}</td>
            <td className="py-1 pr-3 text-right tabular-nums">{m.num_samples}</td>
            <td className="py-1 text-right tabular-nums">{m.num_positives}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Confusion({ matrix }: { matrix: ConfusionMatrix }) {
  const cell = (n: number, agree: boolean) => (
    <td
      className={`px-4 py-2 text-center text-base font-semibold tabular-nums ${agree ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-800"}`}
    >
      {n}
    </td>
  );
  return (
    <table className="text-sm" data-testid="judge-eval-confusion">
      <thead>
        <tr className="text-xs text-zinc-500">
          <th />
          <th className="px-4 py-1 font-medium">judge 0</th>
          <th className="px-4 py-1 font-medium">judge 1</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th className="pr-3 text-right text-xs font-medium text-zinc-500">human 0</th>
          {cell(matrix.tn, true)}
          {cell(matrix.fp, false)}
        </tr>
        <tr>
          <th className="pr-3 text-right text-xs font-medium text-zinc-500">human 1</th>
          {cell(matrix.fn, false)}
          {cell(matrix.tp, true)}
        </tr>
      </tbody>
    </table>
  );
}
