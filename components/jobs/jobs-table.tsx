"use client";

import Link from "next/link";
import { useNow } from "@/components/hooks/use-now";
import { jobElapsedS } from "@/lib/jobs/describe";
import { formatDurationS } from "@/lib/jobs/duration";
import type { JobRow } from "@/lib/jobs/job-view";
import { JobStatusBadge } from "./job-status-badge";
import { JudgeJobProgress } from "./judge-job-progress";

/**
 * One column per fact: where a job ran (a runner and its GPUs, or the studio's worker for a judge
 * job) apart from how far it got (a judge job's leaves and cost), so neither sits under the
 * other's header. Texts wrap rather than being cut: the run's name and the reason show whole.
 */
const HEADERS = [
  "Status",
  "Kind",
  "Paper",
  "Submission",
  "Ran on",
  "Progress",
  "Attempt",
  "Elapsed",
  "Exit",
  "Queued",
  "Reason",
];
// At 1024 px the table fits without the queued time (the newest come first anyway).
const NARROW_HIDDEN = new Set(["Queued"]);

/** The queue's jobs, newest first; a running job's elapsed time ticks. */
export function JobsTable({ jobs }: { jobs: JobRow[] }) {
  const now = useNow(jobs.some((j) => j.status === "running") ? 1_000 : null);
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-left text-sm" data-testid="jobs-table">
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            {HEADERS.map((h) => (
              <th
                key={h}
                className={`whitespace-nowrap px-2.5 py-2 font-medium ${NARROW_HIDDEN.has(h) ? "hidden xl:table-cell" : ""}`}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {jobs.map((j) => {
            const elapsed = jobElapsedS(j, now);
            return (
              <tr key={j.id} data-testid="job-row" data-status={j.status}>
                <td className="px-2.5 py-2">
                  <JobStatusBadge status={j.status} cancelRequested={j.cancelRequested} />
                </td>
                <td className="px-2.5 py-2 text-zinc-600">{j.kind}</td>
                <td className="max-w-[10rem] break-words px-2.5 py-2">
                  <Link href={`/papers/${j.paperId}`} className="text-zinc-700 hover:underline">
                    {j.paperId}
                  </Link>
                </td>
                <td className="min-w-[9rem] max-w-[16rem] break-words px-2.5 py-2" data-testid="job-submission">
                  {j.submissionId ? (
                    <Link
                      href={`/submissions/${j.submissionId}`}
                      className="font-medium text-indigo-700 hover:underline"
                    >
                      {j.agentName ?? "submission"}
                      {j.runIndex !== null && (
                        <span className="block text-xs font-normal text-zinc-500">run {j.runIndex}</span>
                      )}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
                <td className="px-2.5 py-2 text-zinc-600" data-testid="job-ran-on">
                  {/* A judge job runs in the studio's worker: no runner, no GPUs. */}
                  {j.judge ? (
                    "studio worker"
                  ) : (
                    <>
                      <span className="break-words">{j.runnerName ?? "—"}</span>
                      {j.gpuIndices.length > 0 && (
                        <span className="block text-xs tabular-nums text-zinc-500">GPU {j.gpuIndices.join(", ")}</span>
                      )}
                    </>
                  )}
                </td>
                <td className="px-2.5 py-2" data-testid="job-progress">
                  {j.judge ? <JudgeJobProgress judge={j.judge} /> : <span className="text-zinc-400">—</span>}
                </td>
                <td className="whitespace-nowrap px-2.5 py-2 tabular-nums text-zinc-600">
                  {j.attempts}/{j.maxAttempts}
                </td>
                <td className="whitespace-nowrap px-2.5 py-2 tabular-nums">
                  {elapsed === null ? "—" : formatDurationS(elapsed)}
                </td>
                <td className="px-2.5 py-2 tabular-nums">{j.exitCode ?? "—"}</td>
                <td className="hidden whitespace-nowrap px-2.5 py-2 text-zinc-500 xl:table-cell">
                  {new Date(j.createdAt).toLocaleTimeString("en-GB")}
                </td>
                <td
                  className="min-w-[10rem] max-w-[18rem] break-words px-2.5 py-2 text-xs text-red-800"
                  data-testid="job-reason"
                >
                  {j.failureReason ?? ""}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
