"use client";

import { ArrowRight } from "lucide-react";
import { useMemo, useState, type ReactNode } from "react";
import type { RubricDiff, TextDiffPart } from "@/lib/rubric/diff";
import { formatShare } from "@/lib/rubric/shares";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { CategoryChip, EmptyState, plural, truncateText } from "./panel-ui";

/**
 * What changed between two sides of a comparison (two versions, a version and the live tree, a
 * revision and the live tree): counts, added, removed, moved and changed nodes with word-level
 * requirement diffs, and the leaves whose share of the final score moved. A node still in the live
 * tree is a button that selects it there.
 */

/** Items a diff section shows before "Show all". */
const SECTION_PAGE = 100;
/** Share changes listed, by size of change. */
const SHARE_TOP = 50;

export function DiffView({
  diff,
  beforeRows,
  afterRows,
  liveKeys,
  onSelect,
}: {
  diff: RubricDiff;
  beforeRows: readonly NodeRow[];
  afterRows: readonly NodeRow[];
  liveKeys: ReadonlySet<string>;
  onSelect(key: string): void;
}) {
  const beforeByKey = useMemo(() => new Map(beforeRows.map((r) => [r.key, r])), [beforeRows]);
  const afterByKey = useMemo(() => new Map(afterRows.map((r) => [r.key, r])), [afterRows]);
  const shareChanges = useMemo(
    () =>
      [...diff.shareChanges]
        .sort((x, y) => Math.abs(y.after - y.before) - Math.abs(x.after - x.before))
        .slice(0, SHARE_TOP),
    [diff.shareChanges],
  );
  const counts = [
    { label: "added", n: diff.added.length, tone: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
    { label: "removed", n: diff.removed.length, tone: "bg-red-50 text-red-800 ring-red-200" },
    { label: "moved", n: diff.moved.length, tone: "bg-sky-50 text-sky-800 ring-sky-200" },
    { label: "changed", n: diff.changed.length, tone: "bg-amber-50 text-amber-900 ring-amber-200" },
  ];
  const identical = counts.every((c) => c.n === 0) && diff.shareChanges.length === 0;
  const parentText = (map: Map<string, NodeRow>, key: string | null) =>
    key === null ? "(root)" : `“${truncateText(map.get(key)?.requirements ?? "?", 44)}”`;

  return (
    <div data-testid="diff-view" className="space-y-3">
      <div className="flex flex-wrap gap-1.5" data-testid="diff-summary">
        {counts.map((c) => (
          <span
            key={c.label}
            data-count={c.label}
            className={`rounded-full px-2 py-0.5 text-xs ring-1 ring-inset ${c.n ? c.tone : "bg-white text-zinc-400 ring-zinc-200"}`}
          >
            <span className="font-semibold tabular-nums">{c.n.toLocaleString("en")}</span> {c.label}
          </span>
        ))}
      </div>

      {identical && <EmptyState testId="diff-identical">No differences: both sides are the same rubric.</EmptyState>}

      <DiffSection title="Added" items={diff.added} tone="text-emerald-800">
        {(row) => (
          <DiffItem
            testId="diff-added"
            nodeKey={row.key}
            live={liveKeys.has(row.key)}
            onSelect={onSelect}
            marker="+"
            markerTone="text-emerald-600"
          >
            <NodeLine row={row} />
            <Meta>under {parentText(afterByKey, row.parentKey)}</Meta>
          </DiffItem>
        )}
      </DiffSection>

      <DiffSection title="Removed" items={diff.removed} tone="text-red-800">
        {(row) => (
          <DiffItem
            testId="diff-removed"
            nodeKey={row.key}
            live={liveKeys.has(row.key)}
            onSelect={onSelect}
            marker="−"
            markerTone="text-red-600"
          >
            <NodeLine row={row} muted />
            <Meta>was under {parentText(beforeByKey, row.parentKey)}</Meta>
          </DiffItem>
        )}
      </DiffSection>

      <DiffSection title="Moved" items={diff.moved} tone="text-sky-800">
        {(m) => (
          <DiffItem
            testId="diff-moved"
            nodeKey={m.key}
            live={liveKeys.has(m.key)}
            onSelect={onSelect}
            marker="↪"
            markerTone="text-sky-600"
          >
            <span className="block text-zinc-900">{truncateText(m.after.requirements, 110)}</span>
            <Meta>
              {m.parentChanged ? (
                <>
                  from {parentText(beforeByKey, m.before.parentKey)}{" "}
                  <ArrowRight size={11} className="inline" aria-label="to" />{" "}
                  {parentText(afterByKey, m.after.parentKey)}
                </>
              ) : (
                "reordered among its siblings"
              )}
            </Meta>
          </DiffItem>
        )}
      </DiffSection>

      <DiffSection title="Changed" items={diff.changed} tone="text-amber-900">
        {(c) => (
          <DiffItem
            testId="diff-changed"
            nodeKey={c.key}
            live={liveKeys.has(c.key)}
            onSelect={onSelect}
            marker="~"
            markerTone="text-amber-600"
          >
            {c.requirementsDiff ? (
              <TextDiff parts={c.requirementsDiff} />
            ) : (
              <span className="block text-zinc-900">{truncateText(c.after.requirements, 110)}</span>
            )}
            <span className="mt-0.5 flex flex-wrap gap-x-3 gap-y-0.5 text-xs">
              {c.fields.includes("weight") && (
                <FieldChange
                  label="weight"
                  testId="diff-weight"
                  before={String(c.before.weight)}
                  after={String(c.after.weight)}
                  mono
                />
              )}
              {c.fields.includes("taskCategory") && (
                <FieldChange
                  label="category"
                  before={c.before.taskCategory ?? "none"}
                  after={c.after.taskCategory ?? "none"}
                />
              )}
              {c.fields.includes("finegrainedTaskCategory") && (
                <FieldChange
                  label="fine-grained"
                  before={c.before.finegrainedTaskCategory ?? "none"}
                  after={c.after.finegrainedTaskCategory ?? "none"}
                />
              )}
              {c.fields.includes("nodeId") && (
                <FieldChange label="id" before={c.before.nodeId} after={c.after.nodeId} mono />
              )}
            </span>
          </DiffItem>
        )}
      </DiffSection>

      {diff.shareChanges.length > 0 && (
        <section aria-label="Share changes" className="space-y-1">
          <h4 className="flex items-baseline gap-1.5 text-xs font-semibold text-indigo-800">
            Leaf shares of the final score
            <span className="font-normal text-zinc-500">
              {diff.shareChanges.length > SHARE_TOP
                ? `largest ${SHARE_TOP} of ${diff.shareChanges.length.toLocaleString("en")} changes`
                : plural(diff.shareChanges.length, "change")}
            </span>
          </h4>
          <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white">
            {shareChanges.map((s) => {
              const up = s.after > s.before;
              const live = liveKeys.has(s.key);
              const body = (
                <>
                  <span className="min-w-0 flex-1 truncate text-zinc-800" title={s.requirements}>
                    {truncateText(s.requirements, 90)}
                  </span>
                  <span className="shrink-0 font-mono text-[11px] tabular-nums text-zinc-600">
                    {formatShare(s.before)} →{" "}
                    <span className={up ? "text-emerald-700" : "text-red-700"}>{formatShare(s.after)}</span>
                  </span>
                  <span
                    className={`w-3 shrink-0 text-center text-[11px] ${up ? "text-emerald-600" : "text-red-600"}`}
                    aria-label={up ? "up" : "down"}
                  >
                    {up ? "▲" : "▼"}
                  </span>
                </>
              );
              return (
                <li key={s.key} data-testid="share-change" data-key={s.key}>
                  {live ? (
                    <button
                      type="button"
                      onClick={() => onSelect(s.key)}
                      className="flex w-full items-center gap-2 px-2.5 py-1 text-left text-xs hover:bg-indigo-50/60 focus-visible:bg-indigo-50 focus-visible:outline-none"
                    >
                      {body}
                    </button>
                  ) : (
                    <div className="flex items-center gap-2 px-2.5 py-1 text-xs">{body}</div>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}

function DiffSection<T>({
  title,
  items,
  tone,
  children,
}: {
  title: string;
  items: readonly T[];
  tone: string;
  children(item: T): ReactNode;
}) {
  const [all, setAll] = useState(false);
  if (items.length === 0) return null;
  const shown = all ? items : items.slice(0, SECTION_PAGE);
  return (
    <section aria-label={title} className="space-y-1">
      <h4 className={`text-xs font-semibold ${tone}`}>
        {title} <span className="font-normal tabular-nums text-zinc-500">{items.length.toLocaleString("en")}</span>
      </h4>
      <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white">
        {shown.map((item, i) => (
          // Items are rows or entries that carry a node key; the index keeps duplicates apart.
          <li key={i}>{children(item)}</li>
        ))}
      </ul>
      {items.length > shown.length && (
        <button
          type="button"
          className="text-xs font-medium text-indigo-700 hover:underline"
          onClick={() => setAll(true)}
        >
          Show all {items.length.toLocaleString("en")}
        </button>
      )}
    </section>
  );
}

function DiffItem({
  testId,
  nodeKey,
  live,
  onSelect,
  marker,
  markerTone,
  children,
}: {
  testId: string;
  nodeKey: string;
  live: boolean;
  onSelect(key: string): void;
  marker: string;
  markerTone: string;
  children: ReactNode;
}) {
  const inner = (
    <>
      <span className={`w-3 shrink-0 text-center font-mono text-xs font-bold ${markerTone}`} aria-hidden>
        {marker}
      </span>
      <span className="min-w-0 flex-1">{children}</span>
    </>
  );
  return (
    <div data-testid={testId} data-key={nodeKey} data-live={live || undefined} className="text-[13px]">
      {live ? (
        <button
          type="button"
          onClick={() => onSelect(nodeKey)}
          title="Go to this node"
          className="flex w-full items-start gap-1.5 px-2.5 py-1.5 text-left hover:bg-indigo-50/60 focus-visible:bg-indigo-50 focus-visible:outline-none"
        >
          {inner}
        </button>
      ) : (
        <div className="flex items-start gap-1.5 px-2.5 py-1.5" title="Not in the live rubric">
          {inner}
        </div>
      )}
    </div>
  );
}

function NodeLine({ row, muted = false }: { row: NodeRow; muted?: boolean }) {
  return (
    <span className="flex items-start gap-1.5">
      <span className={`min-w-0 flex-1 ${muted ? "text-zinc-500" : "text-zinc-900"}`}>
        {truncateText(row.requirements, 110)}
      </span>
      <span className="shrink-0 font-mono text-[11px] text-zinc-500">×{row.weight}</span>
      {row.taskCategory && <CategoryChip category={row.taskCategory} />}
    </span>
  );
}

function Meta({ children }: { children: ReactNode }) {
  return <span className="mt-0.5 block text-xs text-zinc-500">{children}</span>;
}

function FieldChange({
  label,
  before,
  after,
  mono = false,
  testId,
}: {
  label: string;
  before: string;
  after: string;
  mono?: boolean;
  testId?: string;
}) {
  return (
    <span data-testid={testId} className="inline-flex min-w-0 items-baseline gap-1">
      <span className="text-zinc-500">{label}</span>
      <span className={`${mono ? "font-mono" : ""} text-zinc-700`}>
        <span className="text-red-700">{before}</span> → <span className="text-emerald-700">{after}</span>
      </span>
    </span>
  );
}

/** Long unchanged stretches are shortened to their ends so the edits stand out. */
function elide(text: string, first: boolean, last: boolean): string {
  const keep = 60;
  if (text.length <= keep * 2 + 20) return text;
  if (first) return `…${text.slice(-keep)}`;
  if (last) return `${text.slice(0, keep)}…`;
  return `${text.slice(0, keep)} … ${text.slice(-keep)}`;
}

function TextDiff({ parts }: { parts: TextDiffPart[] }) {
  return (
    <span className="block whitespace-pre-wrap break-words text-zinc-800" data-testid="requirements-diff">
      {parts.map((p, i) =>
        p.op === "insert" ? (
          <ins key={i} className="rounded-sm bg-emerald-100 text-emerald-900 no-underline">
            {p.text}
          </ins>
        ) : p.op === "delete" ? (
          <del key={i} className="rounded-sm bg-red-100 text-red-800 line-through decoration-red-400">
            {p.text}
          </del>
        ) : (
          <span key={i}>{elide(p.text, i === 0, i === parts.length - 1)}</span>
        ),
      )}
    </span>
  );
}
