"use client";

import { ArrowDownToLine, ChevronDown, ChevronUp, Radio, Search } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import type { JobView } from "@/lib/jobs/job-view";
import { LogLineView } from "./log-lines";
import { emptyAttemptLog, partialLine } from "./log-model";
import type { JobLog } from "./use-job-log";
import { useLogViewer } from "./use-log-viewer";

const CONNECTION: Record<JobLog["connection"], string> = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  ended: "complete",
  "access-ended": "you can no longer see this job",
};

/** The reproduction's log: live, in colour, following the tail, searchable, per attempt. */
export function LogPanel({ job, log }: { job: JobView; log: JobLog }) {
  const attemptNumbers = [...new Set([...job.attemptHistory.map((a) => a.attempt), ...log.attempts.keys()])].sort(
    (a, b) => a - b,
  );
  const latest = attemptNumbers.at(-1) ?? 1;
  const [picked, setPicked] = useState<number | null>(null);
  const attempt = picked !== null && attemptNumbers.includes(picked) ? picked : latest;
  const attemptLog = log.attempts.get(attempt) ?? emptyAttemptLog();
  const lines = useMemo(() => {
    const partial = partialLine(attemptLog);
    return partial ? [...attemptLog.lines, partial] : attemptLog.lines;
  }, [attemptLog]);
  const viewer = useLogViewer(lines);

  return (
    <div
      className="flex min-h-0 flex-col overflow-hidden rounded-lg border border-zinc-800 bg-zinc-950"
      data-testid="log-panel"
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-800 px-3 py-2 text-xs text-zinc-300">
        {attemptNumbers.length > 1 && (
          <label className="flex items-center gap-1.5">
            Attempt
            <select
              value={attempt}
              onChange={(e) => setPicked(Number(e.target.value))}
              className="rounded border border-zinc-700 bg-zinc-900 px-1.5 py-0.5 text-zinc-100"
              data-testid="attempt-picker"
            >
              {attemptNumbers.map((n) => (
                <option key={n} value={n}>
                  {n} of {job.maxAttempts}
                  {n === latest ? " (latest)" : ""}
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="flex h-7 min-w-0 flex-1 items-center rounded border border-zinc-700 bg-zinc-900 focus-within:border-indigo-400 sm:max-w-72">
          <Search size={12} className="ml-2 shrink-0 text-zinc-500" aria-hidden />
          <input
            value={viewer.query}
            onChange={(e) => viewer.setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                viewer.step(e.shiftKey ? -1 : 1);
              }
            }}
            aria-label="Search the log"
            placeholder="Search the log (Enter, Shift+Enter)"
            className="h-full min-w-0 flex-1 bg-transparent px-2 text-zinc-100 placeholder:text-zinc-500 outline-none"
            data-testid="log-search"
          />
          {viewer.query && (
            <span className="shrink-0 px-1.5 tabular-nums text-zinc-400" data-testid="log-match-count">
              {viewer.matches.length ? `${viewer.currentIndex + 1 || "–"}/${viewer.matches.length}` : "0/0"}
            </span>
          )}
          <button
            type="button"
            onClick={() => viewer.step(-1)}
            aria-label="Previous match"
            className="px-1 text-zinc-400 hover:text-zinc-100"
          >
            <ChevronUp size={14} />
          </button>
          <button
            type="button"
            onClick={() => viewer.step(1)}
            aria-label="Next match"
            className="pr-1.5 text-zinc-400 hover:text-zinc-100"
          >
            <ChevronDown size={14} />
          </button>
        </div>
        <label className="flex cursor-pointer items-center gap-1.5">
          <input
            type="checkbox"
            checked={viewer.following}
            onChange={(e) => (e.target.checked ? viewer.follow() : viewer.unfollow())}
            data-testid="follow-tail"
          />
          Follow
        </label>
        <span
          className="ml-auto flex items-center gap-1.5"
          data-testid="log-connection"
          data-connection={log.connection}
        >
          <Radio size={12} aria-hidden className={log.connection === "live" ? "text-emerald-400" : "text-zinc-500"} />
          {CONNECTION[log.connection]}
        </span>
      </div>
      <div className="relative min-h-0 flex-1">
        <div
          ref={viewer.scrollRef}
          onScroll={viewer.onScroll}
          tabIndex={0}
          role="log"
          aria-label="Reproduction log"
          onKeyDown={(e) => {
            if (e.key === "n" || e.key === "N") {
              e.preventDefault();
              viewer.step(e.key === "n" ? 1 : -1);
            }
          }}
          className="h-[min(60vh,40rem)] overflow-auto px-1 py-2 font-mono text-[12px] leading-5 text-zinc-200 focus-visible:outline-2 focus-visible:outline-indigo-400"
          data-testid="log-view"
        >
          {lines.length === 0 ? (
            <p className="px-3 text-zinc-500">
              {job.status === "queued" ? "Waiting for a runner to claim the job…" : "No output yet."}
            </p>
          ) : (
            lines.map((line, i) => (
              <LogLineView
                key={i}
                line={line}
                number={i + 1}
                matchStarts={viewer.byLine.get(i)}
                matchLength={viewer.query.length}
                current={viewer.current?.line === i ? viewer.current.start : null}
              />
            ))
          )}
        </div>
        {!viewer.following && (
          <Button
            variant="secondary"
            onClick={viewer.follow}
            className="absolute bottom-3 right-5 shadow-md"
            data-testid="jump-to-bottom"
          >
            <ArrowDownToLine size={14} aria-hidden /> Follow the tail
          </Button>
        )}
      </div>
    </div>
  );
}
