"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchJson } from "@/components/api/client";
import { ProgressBar } from "@/components/ui/progress-bar";

export interface EvaluationListItem {
  id: string;
  name: string;
  agentName: string;
  split: string;
  paperIds: string[];
  runs: number;
  variant: "full" | "code-dev";
  isHuman: boolean;
  submissions: number;
  createdAt: string;
}

interface SummaryCounts {
  papers: string[];
  cells: { state: string }[];
}

/** A row's progress from the evaluation's summary: cells done (not pending) of papers × runs. */
function EvaluationProgress({ evaluation }: { evaluation: EvaluationListItem }) {
  const summary = useQuery({
    queryKey: ["evaluation-list-progress", evaluation.id, evaluation.submissions],
    queryFn: () => fetchJson<SummaryCounts>(`/api/evaluations/${evaluation.id}`),
  });
  if (!summary.data) return <span className="text-xs text-zinc-400">…</span>;
  const total = summary.data.papers.length * evaluation.runs;
  const done = summary.data.cells.filter((c) => c.state !== "pending").length;
  return (
    <div
      className="flex min-w-32 items-center gap-2 text-xs text-zinc-600"
      title={`${summary.data.cells.length} uploaded, ${done} done of ${total} cells`}
    >
      <ProgressBar value={done} total={total} className="h-1.5 flex-1 bg-zinc-200" barClassName="bg-emerald-500" />
      <span data-testid="evaluation-progress-text">
        {done}/{total}
      </span>
    </div>
  );
}

/** Staff's evaluations, newest first, each linking to its page. */
export function EvaluationsTable({ evaluations }: { evaluations: EvaluationListItem[] }) {
  return (
    <table className="w-full text-sm" data-testid="evaluations-table">
      <thead className="border-b border-zinc-200 text-left text-xs uppercase tracking-wide text-zinc-500">
        <tr>
          <th className="px-2.5 py-2">Name</th>
          <th className="px-2.5 py-2">Agent</th>
          <th className="px-2.5 py-2">Split</th>
          <th className="px-2.5 py-2">Runs × papers</th>
          <th className="px-2.5 py-2">Progress</th>
          <th className="px-2.5 py-2">Created</th>
        </tr>
      </thead>
      <tbody>
        {evaluations.map((e) => (
          <tr key={e.id} className="border-b border-zinc-100 hover:bg-zinc-50" data-testid="evaluation-row">
            <td className="px-2.5 py-2">
              <Link href={`/evaluations/${e.id}`} className="font-medium text-indigo-700 hover:underline">
                {e.name}
              </Link>
            </td>
            <td className="px-2.5 py-2">
              {e.agentName}
              {e.isHuman && (
                <span className="ml-1.5 rounded bg-amber-50 px-1.5 py-0.5 text-xs text-amber-800">human</span>
              )}
            </td>
            <td className="px-2.5 py-2">
              {e.split}
              {e.variant === "code-dev" && <span className="ml-1.5 text-xs text-zinc-500">code-dev</span>}
            </td>
            <td className="px-2.5 py-2 tabular-nums">
              {e.runs} × {e.paperIds.length || "any"}
            </td>
            <td className="px-2.5 py-2">
              <EvaluationProgress evaluation={e} />
            </td>
            <td className="whitespace-nowrap px-2.5 py-2 text-zinc-500">
              {new Date(e.createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
