import type { ReactNode } from "react";
import { formatTokens, formatUsd } from "@/components/judge/format";
import { ProgressBar } from "@/components/ui/progress-bar";
import { formatDurationS } from "@/lib/jobs/duration";
import type { MatrixProgress } from "@/lib/evaluations/matrix";

/** How far the evaluation is: cells counted or excluded of all, the time left at its pace, and what it has used so far. */
export function EvaluationProgress({ figures }: { figures: MatrixProgress }) {
  const { done, total } = figures;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <section
      aria-label="Progress"
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4"
      data-testid="evaluation-progress"
    >
      <div className="flex items-baseline gap-3 text-sm">
        <span className="font-medium" data-testid="progress-count">
          {done} / {total} cells counted or excluded
        </span>
        <span className="text-zinc-500">{percent}%</span>
      </div>
      <div role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-label="Cells done">
        <ProgressBar
          value={done}
          total={total}
          className="h-2 bg-zinc-100"
          barClassName="bg-emerald-500"
          minPercent={done > 0 ? 1 : 0}
        />
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <Figure label="ETA" testId="progress-eta">
          {done >= total && total > 0 ? "done" : figures.etaS === null ? "—" : `about ${formatDurationS(figures.etaS)}`}
        </Figure>
        <Figure label="GPU hours" testId="progress-gpu-hours">
          {figures.gpuHours.toFixed(figures.gpuHours < 10 ? 2 : 1)}
        </Figure>
        <Figure label="Judge tokens" testId="progress-judge-tokens">
          {formatTokens(figures.judgeTokens.input)} in ({formatTokens(figures.judgeTokens.cachedInput)} cached) ·{" "}
          {formatTokens(figures.judgeTokens.output)} out
        </Figure>
        <Figure label="Cost so far" testId="progress-cost">
          {formatUsd(figures.costUsd)}
        </Figure>
      </dl>
    </section>
  );
}

function Figure({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="font-medium tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
