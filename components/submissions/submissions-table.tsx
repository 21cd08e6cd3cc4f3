"use client";

import Link from "next/link";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { LatestJudgeCell } from "./latest-judge-cell";
import { groupByAgent, type SubmissionItem } from "./submission-item";

interface Selection {
  isChecked(id: string): boolean;
  toggle(id: string): void;
  toggleAll(ids: readonly string[]): void;
}

const CELL = "py-1.5 pr-3";

/** The paper's submissions grouped by agent; with a selection (staff), a checkbox per run and per agent. */
export function SubmissionsTable({ items, selection }: { items: SubmissionItem[]; selection: Selection | null }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            {selection && (
              <th className="w-7 py-1.5 pr-2 font-medium">
                <span className="sr-only">Select</span>
              </th>
            )}
            <th className={`${CELL} font-medium`}>Agent</th>
            <th className={`${CELL} font-medium`}>Run</th>
            <th className={`${CELL} font-medium`}>Variant</th>
            <th className={`${CELL} font-medium`}>Files</th>
            <th className={`${CELL} font-medium`}>Reproduction</th>
            <th className={`${CELL} font-medium`}>Judge</th>
            <th className="py-1.5 font-medium">Added</th>
          </tr>
        </thead>
        {groupByAgent(items).map((group) => {
          const ids = group.items.map((s) => s.id);
          const checkedCount = ids.filter((id) => selection?.isChecked(id)).length;
          return (
            <tbody
              key={group.agentId}
              className="divide-y divide-zinc-100 border-b border-zinc-200 last:border-b-0"
              data-testid="agent-runs"
              data-agent={group.agentName}
            >
              {selection && group.items.length > 1 && (
                <tr className="bg-zinc-50/70">
                  <td className="py-1 pr-2">
                    <input
                      type="checkbox"
                      checked={checkedCount === ids.length}
                      ref={(el) => {
                        if (el) el.indeterminate = checkedCount > 0 && checkedCount < ids.length;
                      }}
                      onChange={() => selection.toggleAll(ids)}
                      aria-label={`All runs of ${group.agentName}`}
                      data-testid="select-agent-runs"
                      className="size-3.5 align-middle accent-indigo-600"
                    />
                  </td>
                  <td colSpan={7} className="py-1 text-xs text-zinc-500">
                    All {ids.length} runs of <span className="font-medium text-zinc-700">{group.agentName}</span>
                  </td>
                </tr>
              )}
              {group.items.map((s) => (
                <tr key={s.id} data-testid="submission-row" data-submission={s.id}>
                  {selection && (
                    <td className="py-1.5 pr-2">
                      <input
                        type="checkbox"
                        checked={selection.isChecked(s.id)}
                        onChange={() => selection.toggle(s.id)}
                        aria-label={`Select ${s.agentName} run ${s.runIndex} (${s.variant})`}
                        data-testid="select-submission"
                        className="size-3.5 align-middle accent-indigo-600"
                      />
                    </td>
                  )}
                  <td className={CELL}>
                    <Link href={`/submissions/${s.id}`} className="font-medium text-indigo-700 hover:underline">
                      {s.agentName}
                    </Link>
                  </td>
                  <td className={`${CELL} tabular-nums`}>{s.runIndex}</td>
                  <td className={`${CELL} text-zinc-600`}>{s.variant}</td>
                  <td className={`${CELL} tabular-nums text-zinc-600`} data-testid="submission-file-count">
                    {s.archiveFileCount.toLocaleString("en")}
                  </td>
                  <td className={CELL}>
                    {s.latestJobStatus ? (
                      <JobStatusBadge status={s.latestJobStatus} />
                    ) : (
                      <span className="text-zinc-400">—</span>
                    )}
                  </td>
                  <td className={CELL}>
                    <LatestJudgeCell run={s.latestJudge} />
                  </td>
                  <td className="whitespace-nowrap py-1.5 text-zinc-500">
                    {new Date(s.createdAt).toLocaleDateString("en-GB", {
                      day: "numeric",
                      month: "short",
                      year: "numeric",
                    })}
                  </td>
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
