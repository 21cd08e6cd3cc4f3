"use client";

import { ProgressBar } from "@/components/ui/progress-bar";
import { f2, seconds, usd, versionLabel } from "./format";
import { LabGroupTable } from "./lab-group-table";
import { LabScatter } from "./lab-scatter";
import { useLab } from "./use-judge-lab";

/** A lab: progress while its runs go, the table per configuration, the scatter plot, and each run. */
export function LabResults({ labId }: { labId: string }) {
  const lab = useLab(labId);
  if (lab.isError) return <p className="text-sm text-red-700">{lab.error.message}</p>;
  if (!lab.data) return <p className="text-sm text-zinc-500">Loading…</p>;
  const { runs, groups, skipped } = lab.data;
  const leavesDone = runs.reduce((a, r) => a + r.leavesDone, 0);
  const leavesTotal = runs.reduce((a, r) => a + r.leavesTotal, 0);
  const ended = runs.filter((r) => !["queued", "running"].includes(r.status)).length;
  return (
    <div className="space-y-4" data-testid="judge-lab-results">
      <div className="rounded-lg border border-zinc-200 bg-white p-3 text-sm" data-testid="judge-lab-progress">
        <div className="flex justify-between text-zinc-700">
          <span>
            {ended} of {runs.length} runs ended · {leavesDone} of {leavesTotal} leaves judged
          </span>
          <span className="tabular-nums">{usd(runs.reduce((a, r) => a + r.costUsd, 0))} so far</span>
        </div>
        <ProgressBar
          value={leavesDone}
          total={leavesTotal}
          className="mt-2 h-2 rounded bg-zinc-100"
          barClassName="h-2 rounded bg-indigo-500"
        />
      </div>
      <LabGroupTable groups={groups} />
      {skipped.length > 0 && (
        <p className="text-sm text-amber-800">
          {skipped.length} run(s) left out of the metrics: {skipped[0].message}
        </p>
      )}
      <LabScatter groups={groups} />
      <details className="rounded-lg border border-zinc-200 bg-white p-3 text-sm">
        <summary className="cursor-pointer text-zinc-700">Runs ({runs.length})</summary>
        <table className="mt-2 w-full">
          <thead className="text-left text-xs text-zinc-500">
            <tr>
              <th>Configuration</th>
              <th>Submission</th>
              <th>Addendum</th>
              <th>Status</th>
              <th>Leaves</th>
              <th>F1</th>
              <th>Cost</th>
              <th>Time</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.judgeRunId} className="border-t border-zinc-100">
                <td>{r.configName}</td>
                <td>
                  <a className="text-indigo-700 hover:underline" href={`/gradings/${r.gradingId}`}>
                    {r.paperId} · {r.agentName} · run {r.runIndex}
                  </a>
                </td>
                <td>{versionLabel(r.addendumVersion)}</td>
                <td>{r.status}</td>
                <td className="tabular-nums">
                  {r.leavesDone}/{r.leavesTotal}
                </td>
                <td className="tabular-nums">{f2(r.f1)}</td>
                <td className="tabular-nums">{usd(r.costUsd)}</td>
                <td className="tabular-nums">{seconds(r.durationS)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
