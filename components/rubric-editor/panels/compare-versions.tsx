"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowLeftRight } from "lucide-react";
import { useDeferredValue, useMemo } from "react";
import { fetchJson } from "@/components/api/client";
import { diffRubrics } from "@/lib/rubric/diff";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { DiffView } from "./diff-view";
import { LIVE, rubricVersionQueryKey, type RubricVersion, type Side } from "./rubric-versions";

/** The rows of one side of a comparison: the live rows, or a version's snapshot (fetched once). */
function useSideRows(paperId: string, side: Side, liveRows: readonly NodeRow[]) {
  const isLive = side === LIVE;
  const query = useQuery({
    queryKey: rubricVersionQueryKey(paperId, side),
    queryFn: () =>
      fetchJson<{ version: RubricVersion; nodes: NodeRow[] }>(`/api/papers/${paperId}/rubric/versions/${side}`),
    enabled: !isLive,
    staleTime: Infinity, // a saved version never changes
  });
  if (isLive) return { rows: liveRows, pending: false, error: null as Error | null };
  return { rows: query.data?.nodes ?? null, pending: query.isPending, error: query.error };
}

/** Two sides (versions or the live tree) picked, and what changed from one to the other. */
export function CompareSection({
  paperId,
  versions,
  from,
  to,
  revision,
  liveRows,
  onFrom,
  onTo,
  onSwap,
  onSelect,
}: {
  paperId: string;
  versions: RubricVersion[];
  from: Side;
  to: Side;
  revision: number;
  liveRows: readonly NodeRow[];
  onFrom(side: Side): void;
  onTo(side: Side): void;
  onSwap(): void;
  onSelect(key: string): void;
}) {
  // Typing in the tree must not wait for the diff: the live side follows at low priority.
  const deferredLive = useDeferredValue(liveRows);
  const before = useSideRows(paperId, from, deferredLive);
  const after = useSideRows(paperId, to, deferredLive);
  const liveKeys = useMemo(() => new Set(liveRows.map((r) => r.key)), [liveRows]);
  const beforeRows = before.rows;
  const afterRows = after.rows;
  const diff = useMemo(
    () => (beforeRows && afterRows && from !== to ? diffRubrics(beforeRows, afterRows) : null),
    [beforeRows, afterRows, from, to],
  );

  const options = (
    <>
      <option value={LIVE}>Live (rev {revision})</option>
      {versions.map((v) => (
        <option key={v.id} value={v.id}>
          {v.name} · rev {v.revision}
        </option>
      ))}
    </>
  );
  const select =
    "min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-1.5 py-1 text-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200";
  const error = before.error ?? after.error;

  return (
    <section aria-label="Compare versions" className="space-y-2">
      <h3 className="text-xs font-semibold text-zinc-700">Compare</h3>
      <div className="flex items-center gap-1.5">
        <span className="shrink-0 rounded bg-indigo-100 px-1 text-[11px] font-medium text-indigo-700" aria-hidden>
          A
        </span>
        <select
          aria-label="Compare from"
          className={select}
          value={from}
          onChange={(e) => onFrom(e.target.value)}
          data-testid="diff-from"
        >
          {options}
        </select>
        <button
          type="button"
          onClick={onSwap}
          aria-label="Swap the two sides"
          title="Swap"
          className="shrink-0 rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-indigo-700"
        >
          <ArrowLeftRight size={13} aria-hidden />
        </button>
        <span className="shrink-0 rounded bg-indigo-100 px-1 text-[11px] font-medium text-indigo-700" aria-hidden>
          B
        </span>
        <select
          aria-label="Compare to"
          className={select}
          value={to}
          onChange={(e) => onTo(e.target.value)}
          data-testid="diff-to"
        >
          {options}
        </select>
      </div>

      {from === to ? (
        <p className="text-xs text-zinc-500">Pick two different sides to see what changed.</p>
      ) : error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800">
          {error.message}
        </p>
      ) : before.pending || after.pending || !diff ? (
        <p className="text-xs text-zinc-500">Loading the version…</p>
      ) : (
        <DiffView diff={diff} beforeRows={beforeRows!} afterRows={afterRows!} liveKeys={liveKeys} onSelect={onSelect} />
      )}
    </section>
  );
}
