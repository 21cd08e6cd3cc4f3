"use client";

import { useQuery } from "@tanstack/react-query";
import { FileCode2, FileWarning, FolderOpen, ScrollText, Search } from "lucide-react";
import { useMemo, useState, type ReactNode } from "react";
import { fetchJson } from "@/components/api/client";
import { formatBytes } from "@/lib/bytes";
import { plural } from "@/lib/leaderboard/format";
import type { FileTarget } from "@/lib/judge/evidence";
import { FileView, LogLines } from "./file-view";

interface FileItem {
  path: string;
  size: number;
  skipped: string | null;
}

interface FilesResponse {
  archiveName: string | null;
  archiveBytes: number;
  notes: { path: string; reason: string }[];
  hasReproduceLog: boolean;
  files: FileItem[];
}

const LOG = "\u0000reproduce.log";

/**
 * A submitted repository: a file browser with highlighting, and the reproduce.log that came with
 * it. `filesUrl` answers the listing, `?path=` a file and `?log=1` the log (the grading's route on
 * the review page, the submission's on its own page); `empty` says what to do when there is nothing.
 */
export function SubmissionFiles({
  filesUrl,
  empty,
  listMaxHeight = "max-h-40",
  target = null,
}: {
  filesUrl: string;
  empty: ReactNode;
  listMaxHeight?: string;
  /** A file to open at lines (an evidence link); each new `seq` opens it again. */
  target?: FileTarget | null;
}) {
  const listing = useQuery({
    queryKey: ["submission-files", filesUrl],
    queryFn: () => fetchJson<FilesResponse>(filesUrl),
    staleTime: Infinity,
  });
  const [open, setOpen] = useState<string | null>(null);
  const [filter, setFilter] = useState("");
  const [openedSeq, setOpenedSeq] = useState(0);
  // An evidence link opens its file (adjusted while rendering: no effect needed).
  if (target && target.seq !== openedSeq) {
    setOpenedSeq(target.seq);
    setOpen(target.path === "reproduce.log" ? LOG : target.path);
  }
  const lines = target && target.seq === openedSeq ? target : null;
  const data = listing.data;
  // The reproduce.log first (what happened when the submission ran), else the first file.
  const shown = open ?? (data?.hasReproduceLog ? LOG : (data?.files.find((f) => f.skipped === null)?.path ?? null));
  const files = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (data?.files ?? []).filter((f) => !needle || f.path.toLowerCase().includes(needle));
  }, [data, filter]);

  if (listing.isPending) {
    return (
      <div className="space-y-2 p-3" aria-busy="true">
        {Array.from({ length: 6 }, (_, i) => (
          <div
            key={i}
            className="h-4 animate-pulse rounded bg-zinc-100"
            style={{ width: `${50 + ((i * 23) % 40)}%` }}
          />
        ))}
      </div>
    );
  }
  if (listing.isError) return <p className="p-3 text-sm text-red-700">{listing.error.message}</p>;
  if (!data || (data.files.length === 0 && !data.hasReproduceLog)) {
    return (
      <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center" data-testid="no-files">
        <FolderOpen size={28} className="text-zinc-300" aria-hidden />
        {empty}
      </div>
    );
  }
  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="submission-panel">
      <div className="shrink-0 space-y-1.5 border-b border-zinc-200 p-2">
        <div className="flex items-center gap-1.5 text-xs text-zinc-500">
          <span className="truncate font-medium text-zinc-700" title={data.archiveName ?? undefined}>
            {data.archiveName ?? "Submission"}
          </span>
          <span className="ml-auto shrink-0">
            {plural(data.files.length, "file")} · {formatBytes(data.archiveBytes)}
          </span>
        </div>
        {data.hasReproduceLog && (
          <button
            type="button"
            onClick={() => setOpen(LOG)}
            data-testid="open-reproduce-log"
            className={`flex w-full items-center gap-1.5 rounded px-1.5 py-1 text-left text-xs ${shown === LOG ? "bg-indigo-50 font-medium text-indigo-800" : "text-zinc-700 hover:bg-zinc-50"}`}
          >
            <ScrollText size={13} aria-hidden /> reproduce.log
          </button>
        )}
        {data.files.length > 8 && (
          <div className="flex h-7 items-center rounded border border-zinc-300 bg-white focus-within:border-indigo-500">
            <Search size={12} className="ml-1.5 text-zinc-400" aria-hidden />
            <input
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              aria-label="Filter files"
              placeholder="Filter files"
              className="h-full min-w-0 flex-1 bg-transparent px-1.5 text-xs outline-none"
            />
          </div>
        )}
        <ul className={`${listMaxHeight} overflow-y-auto text-xs`} data-testid="file-list">
          {files.map((f) => (
            <li key={f.path}>
              <button
                type="button"
                onClick={() => setOpen(f.path)}
                disabled={f.skipped !== null}
                title={f.skipped ? `${f.path}: not kept (${f.skipped})` : f.path}
                className={`flex w-full items-center gap-1.5 rounded px-1.5 py-0.5 text-left font-mono ${
                  shown === f.path
                    ? "bg-indigo-50 text-indigo-800"
                    : f.skipped
                      ? "text-zinc-400"
                      : "text-zinc-700 hover:bg-zinc-50"
                }`}
              >
                {f.skipped ? (
                  <FileWarning size={12} className="shrink-0" aria-hidden />
                ) : (
                  <FileCode2 size={12} className="shrink-0" aria-hidden />
                )}
                <span className="min-w-0 flex-1 truncate">{f.path}</span>
                <span className="shrink-0 text-[10px] text-zinc-400">{formatBytes(f.size)}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="min-h-0 flex-1 overflow-auto">
        {shown === LOG ? (
          <LogView filesUrl={filesUrl} lines={lines?.path === "reproduce.log" ? lines : null} />
        ) : shown ? (
          <FileView filesUrl={filesUrl} path={shown} lines={lines?.path === shown ? lines : null} />
        ) : null}
      </div>
    </div>
  );
}

function LogView({ filesUrl, lines }: { filesUrl: string; lines: FileTarget | null }) {
  const log = useQuery({
    queryKey: ["submission-log", filesUrl],
    queryFn: () => fetchJson<{ reproduceLog: string | null }>(`${filesUrl}?log=1`),
    staleTime: Infinity,
  });
  if (log.isPending) return <div className="m-3 h-24 animate-pulse rounded bg-zinc-100" />;
  if (log.isError) return <p className="p-3 text-sm text-red-700">{log.error.message}</p>;
  return <LogLines text={log.data.reproduceLog ?? "(empty)"} lines={lines} testId="reproduce-log" />;
}
