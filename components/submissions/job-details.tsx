"use client";

import { CheckCircle2, Download, FileDiff, XCircle } from "lucide-react";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { formatBytes } from "@/lib/bytes";
import { formatDurationS } from "@/lib/jobs/duration";
import type { JobView } from "@/lib/jobs/job-view";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { FileView } from "./file-view";

/** What the reproduction left: every file, those it changed marked, one opened in the files viewer; and the downloads. */
export function OutputsPanel({ job }: { job: JobView }) {
  const [open, setOpen] = useState<string | null>(null);
  const outputs = job.outputs;
  const changed = outputs?.files.filter((f) => f.changed).length ?? 0;
  return (
    <section className="space-y-3" data-testid="outputs-panel">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm text-zinc-600">
          {outputs
            ? `${outputs.files.length.toLocaleString("en")} files, ${formatBytes(outputs.bytes)}; ${changed} written by the reproduction.`
            : "No outputs yet: the runner uploads them when reproduce.sh has ended."}
        </p>
        <div className="ml-auto flex gap-2">
          {outputs && (
            <a
              href={`/api/jobs/${job.id}/outputs`}
              className={buttonClass("secondary")}
              download
              data-testid="download-outputs"
            >
              <Download size={14} aria-hidden /> Outputs (.tar.gz)
            </a>
          )}
          {outputs && (
            <a
              href={`/api/jobs/${job.id}/outputs?format=paperbench`}
              className={buttonClass("secondary")}
              download
              title="The executed submission as PaperBench stores it, under submission/: what its judge reads"
              data-testid="download-executed-submission"
            >
              <Download size={14} aria-hidden /> submission_executed.tar.gz
            </a>
          )}
          {job.metadata && (
            <a
              href={`/api/jobs/${job.id}/metadata`}
              className={buttonClass("secondary")}
              download
              data-testid="download-metadata"
            >
              <Download size={14} aria-hidden /> executed_metadata.json
            </a>
          )}
        </div>
      </div>
      {outputs && outputs.files.length > 0 && (
        <ul className="max-h-[20rem] divide-y divide-zinc-100 overflow-auto rounded-md border border-zinc-200 bg-white font-mono text-xs">
          {outputs.files.map((f) => (
            <li key={f.path}>
              <button
                type="button"
                onClick={() => setOpen(f.path)}
                aria-current={open === f.path ? "true" : undefined}
                className={`flex w-full items-center gap-2 px-3 py-1 text-left ${open === f.path ? "bg-indigo-50" : "hover:bg-zinc-50"}`}
                data-testid="output-file"
                data-changed={f.changed}
              >
                {f.changed ? (
                  <FileDiff size={13} className="shrink-0 text-emerald-600" aria-label="changed" />
                ) : (
                  <span className="w-[13px] shrink-0" />
                )}
                <span
                  className={`min-w-0 flex-1 truncate ${f.changed ? "text-emerald-800" : "text-zinc-700"}`}
                  title={f.path}
                >
                  {f.path}
                </span>
                {f.changed && <span className="rounded bg-emerald-50 px-1 text-[10px] text-emerald-700">changed</span>}
                <span className="shrink-0 text-zinc-400">{formatBytes(f.size)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {outputs && open && (
        <div className="max-h-[36rem] overflow-auto rounded-md border border-zinc-200 bg-white">
          <FileView filesUrl={`/api/jobs/${job.id}/outputs/files`} path={open} lines={null} />
        </div>
      )}
    </section>
  );
}

const time = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "short", timeStyle: "medium" }) : "—";

/** Each attempt of the job: where it ran, how it ended and why. */
export function AttemptsPanel({ job }: { job: JobView }) {
  if (job.attemptHistory.length === 0)
    return <p className="text-sm text-zinc-500">No runner has claimed this job yet.</p>;
  return (
    <div className="overflow-x-auto rounded-md border border-zinc-200 bg-white" data-testid="attempts-panel">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            {["#", "Runner", "GPUs", "Status", "Exit", "Reason", "Started", "Finished"].map((h) => (
              <th key={h} className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {[...job.attemptHistory].reverse().map((a) => (
            <tr key={a.attempt}>
              <td className="px-3 py-2 tabular-nums">{a.attempt}</td>
              <td className="px-3 py-2">{a.runnerName ?? "—"}</td>
              <td className="px-3 py-2 tabular-nums">{a.gpuIndices.length ? a.gpuIndices.join(", ") : "—"}</td>
              <td className="px-3 py-2">
                <JobStatusBadge status={a.status} />
              </td>
              <td className="px-3 py-2 tabular-nums">{a.exitCode ?? "—"}</td>
              <td className="max-w-xs px-3 py-2 text-zinc-600">{a.reason ?? "—"}</td>
              <td className="whitespace-nowrap px-3 py-2 text-zinc-600">{time(a.startedAt)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-zinc-600">{time(a.finishedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** PaperBench's reproduction metadata at a glance (the full file is the download). */
export function MetadataPanel({ job }: { job: JobView }) {
  const m = job.metadata;
  if (!m) return <p className="text-sm text-zinc-500">The metadata is written when the reproduction ends.</p>;
  const rows: [string, React.ReactNode][] = [
    ["reproduce.sh found", <Flag key="s" value={m.repro_script_exists} />],
    ["Timed out", <Flag key="t" value={m.timedout} invert />],
    ["Execution time", m.repro_execution_time === null ? "—" : formatDurationS(m.repro_execution_time)],
    ["Exit code", m.exit_code ?? "—"],
    ["Git repository", <Flag key="g" value={m.is_valid_git_repo} />],
    ["Salvage retries", m.retried_results.length],
    ["Runner", `${m.runner} (${m.backend}), attempt ${m.attempt}`],
    ["GPUs", m.gpus.length ? m.gpus.join(", ") : "none"],
  ];
  return (
    <div className="space-y-3" data-testid="metadata-panel">
      <dl className="grid max-w-xl grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-500">{label}</dt>
            <dd className="text-zinc-800">{value}</dd>
          </div>
        ))}
      </dl>
      {m.git_log && (
        <details className="text-sm">
          <summary className="cursor-pointer text-zinc-600">git log</summary>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs">{m.git_log}</pre>
        </details>
      )}
    </div>
  );
}

function Flag({ value, invert = false }: { value: boolean; invert?: boolean }) {
  const good = invert ? !value : value;
  return (
    <span className={`inline-flex items-center gap-1 ${good ? "text-emerald-700" : "text-red-700"}`}>
      {good ? <CheckCircle2 size={13} aria-hidden /> : <XCircle size={13} aria-hidden />}
      {value ? "yes" : "no"}
    </span>
  );
}
