"use client";

import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { useDeferredValue, useId, useMemo, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { Button, buttonClass } from "@/components/ui/button";
import { FormError, Input } from "@/components/ui/field";
import { fetchJson, jsonInit } from "@/components/api/client";
import { diffRubrics } from "@/lib/rubric/diff";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { DiffView } from "./diff-view";
import { relativeTime, useNow } from "./panel-ui";
import { RestoreConfirm } from "./restore-confirm";

interface RevisionItem {
  revision: number;
  kind: string;
  createdAt: string;
  user: { name: string | null; email: string } | null;
  summary: string;
}

const PAGE = 20;

/**
 * "As of a revision": any revision of the operation log, picked by number or from the list of
 * recent changes, compared with the live tree in the same diff view as versions, and restored
 * the same way as a version (one operation, undone with Ctrl+Z).
 */
/** What the Versions panel and its revision section work with: the live rubric, and what to do after a restore. */
export interface HistoryPanelProps {
  paperId: string;
  canEdit: boolean;
  liveRows: readonly NodeRow[];
  revision: number;
  onRestored(inverse: RubricOperation): void;
  onSelect(key: string): void;
}

export function RevisionHistory({ paperId, canEdit, liveRows, revision, onRestored, onSelect }: HistoryPanelProps) {
  const [picked, setPicked] = useState<number | null>(null);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  function pick(n: number) {
    setPicked(n);
    setDraft(String(n));
    setError(null);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const n = Number(draft);
    if (draft.trim() === "" || !Number.isInteger(n) || n < 0 || n > revision) {
      setError(`Pick a whole revision number from 0 to ${revision}`);
      return;
    }
    pick(n);
  }

  return (
    <section
      aria-label="As of a revision"
      className="space-y-2 border-t border-zinc-200 pt-3"
      data-testid="revision-history"
    >
      <h3 className="text-xs font-semibold text-zinc-700">As of a revision</h3>
      <p className="text-xs text-zinc-500">
        Any earlier state of the rubric, rebuilt from its change log, compared with the live rubric.
      </p>
      <form onSubmit={submit} noValidate className="space-y-1" aria-label="Show the rubric as of a revision">
        <div className="flex items-center gap-1.5">
          <label htmlFor={inputId} className="shrink-0 text-xs text-zinc-600">
            Revision
          </label>
          {/* The field is full width by default; this box keeps it to a few digits. */}
          <div className="w-24 shrink-0">
            <Input
              id={inputId}
              type="number"
              inputMode="numeric"
              min={0}
              max={revision}
              step={1}
              value={draft}
              placeholder={`0–${revision}`}
              aria-invalid={error ? true : undefined}
              onChange={(e) => {
                setDraft(e.target.value);
                if (error) setError(null);
              }}
              className="py-1 text-xs"
              data-testid="revision-input"
            />
          </div>
          <Button type="submit" variant="secondary" className="px-2.5 py-1 text-xs" data-testid="revision-show">
            Compare with live
          </Button>
        </div>
        <FormError error={error} />
      </form>
      <RecentRevisions paperId={paperId} revision={revision} picked={picked} onPick={pick} />
      {picked !== null && (
        <RevisionDiff
          key={picked}
          paperId={paperId}
          canEdit={canEdit}
          at={picked}
          liveRows={liveRows}
          revision={revision}
          onRestored={onRestored}
          onSelect={onSelect}
        />
      )}
    </section>
  );
}

/** The log, newest first, a page at a time; a click picks that revision. */
function RecentRevisions({
  paperId,
  revision,
  picked,
  onPick,
}: {
  paperId: string;
  revision: number;
  picked: number | null;
  onPick(n: number): void;
}) {
  const now = useNow();
  // Follows the live revision at low priority: typing in the tree does not wait for the list.
  const latest = useDeferredValue(revision);
  const log = useInfiniteQuery({
    queryKey: ["rubric-revisions", paperId, latest],
    queryFn: ({ pageParam }) =>
      fetchJson<{ revisions: RevisionItem[] }>(
        `/api/papers/${encodeURIComponent(paperId)}/rubric/revisions?limit=${PAGE}${pageParam === null ? "" : `&before=${pageParam}`}`,
      ).then((r) => r.revisions),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.length === PAGE && last[last.length - 1].revision > 1 ? last[last.length - 1].revision - 1 : undefined,
    placeholderData: (previous) => previous,
  });
  const items = useMemo(() => log.data?.pages.flat() ?? [], [log.data]);

  if (log.isError) return <p className="text-xs text-red-700">{log.error.message}</p>;
  if (items.length === 0)
    return log.isPending ? <p className="text-xs text-zinc-500">Loading the change log…</p> : null;
  return (
    <div className="space-y-1">
      <ol
        className="max-h-56 divide-y divide-zinc-100 overflow-auto rounded-md border border-zinc-200 bg-white"
        aria-label="Recent changes"
        data-testid="revision-list"
      >
        {items.map((item) => (
          <li key={item.revision}>
            <button
              type="button"
              onClick={() => onPick(item.revision)}
              aria-pressed={picked === item.revision}
              data-testid="revision-item"
              data-revision={item.revision}
              className={`flex w-full items-start gap-2 px-2.5 py-1.5 text-left text-xs hover:bg-indigo-50/60 focus-visible:bg-indigo-50 focus-visible:outline-none ${
                picked === item.revision ? "bg-indigo-50" : ""
              }`}
            >
              <span className="w-12 shrink-0 font-mono text-[11px] text-zinc-500">rev {item.revision}</span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-zinc-800" title={item.summary}>
                  {item.summary}
                </span>
                <span className="block truncate text-[11px] text-zinc-500">
                  {item.user ? (item.user.name ?? item.user.email) : "the studio"} ·{" "}
                  <time dateTime={item.createdAt} title={new Date(item.createdAt).toLocaleString("en")}>
                    {relativeTime(item.createdAt, now)}
                  </time>
                  {item.revision === revision && " · live"}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ol>
      {log.hasNextPage && (
        <button
          type="button"
          className="text-xs font-medium text-indigo-700 hover:underline disabled:text-zinc-400"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {log.isFetchingNextPage ? "Loading…" : "Older changes"}
        </button>
      )}
    </div>
  );
}

/** The tree as of one revision against the live tree, and its restore. */
function RevisionDiff({
  paperId,
  canEdit,
  at,
  liveRows,
  revision,
  onRestored,
  onSelect,
}: {
  paperId: string;
  canEdit: boolean;
  at: number;
  liveRows: readonly NodeRow[];
  revision: number;
  onRestored(inverse: RubricOperation): void;
  onSelect(key: string): void;
}) {
  const base = `/api/papers/${encodeURIComponent(paperId)}/rubric`;
  const tree = useQuery({
    queryKey: ["rubric-at-revision", paperId, at],
    queryFn: () => fetchJson<{ nodes: NodeRow[] }>(`${base}/tree?revision=${at}`).then((r) => r.nodes),
    staleTime: Infinity, // a past revision never changes
  });
  // Typing in the tree must not wait for the diff: the live side follows at low priority.
  const live = useDeferredValue(liveRows);
  const liveKeys = useMemo(() => new Set(liveRows.map((r) => r.key)), [liveRows]);
  const rows = tree.data;
  const diff = useMemo(() => (rows ? diffRubrics(rows, live) : null), [rows, live]);

  const [confirming, setConfirming] = useState(false);
  const restore = useMutation({
    mutationFn: () =>
      fetchJson<{ revision: number; inverse: RubricOperation }>(
        `${base}/tree/restore`,
        jsonInit("POST", { revision: at }),
      ),
    onSuccess: (result) => {
      setConfirming(false);
      onRestored(result.inverse);
      toast.success(`Restored revision ${at} — Undo with Ctrl+Z`);
    },
  });

  return (
    <div className="space-y-2" data-testid="revision-diff" data-revision={at}>
      <div className="flex flex-wrap items-center gap-1.5 text-xs">
        <span className="rounded bg-indigo-100 px-1 font-medium text-indigo-700">A</span>
        <span className="font-mono">rev {at}</span>
        <span className="text-zinc-400">→</span>
        <span className="rounded bg-indigo-100 px-1 font-medium text-indigo-700">B</span>
        <span>Live (rev {revision})</span>
        {canEdit && at < revision && !confirming && rows && rows.length > 0 && (
          <button
            type="button"
            className={buttonClass("secondary", "ml-auto px-2 py-0.5 text-xs")}
            onClick={() => {
              restore.reset();
              setConfirming(true);
            }}
            data-testid="revision-restore"
          >
            <RotateCcw size={13} aria-hidden />
            Restore revision {at}
          </button>
        )}
      </div>
      {confirming && (
        <RestoreConfirm
          label={`Restore revision ${at}?`}
          error={restore.isError ? restore.error.message : null}
          restoring={restore.isPending}
          confirmText={`Restore revision ${at}`}
          testId="revision-restore-confirm"
          onRestore={() => restore.mutate()}
          onCancel={() => setConfirming(false)}
        >
          The live rubric becomes what it was at revision {at}, as one change everyone sees at once. Nodes deleted since
          come back as new nodes. Undo with Ctrl+Z.
        </RestoreConfirm>
      )}
      {tree.isError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800">
          {tree.error.message}
        </p>
      ) : !rows || !diff ? (
        <p className="text-xs text-zinc-500">Rebuilding revision {at}…</p>
      ) : rows.length === 0 ? (
        <p className="text-xs text-zinc-500" data-testid="revision-empty">
          The rubric was empty at revision {at}.
        </p>
      ) : (
        <DiffView diff={diff} beforeRows={rows} afterRows={live} liveKeys={liveKeys} onSelect={onSelect} />
      )}
    </div>
  );
}
