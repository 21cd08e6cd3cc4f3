"use client";

import { ChevronDown, ChevronRight } from "lucide-react";
import { useMemo, useState } from "react";
import { toCodeDevRows } from "@/lib/rubric/code-dev";
import { effectiveShares, formatShare } from "@/lib/rubric/shares";
import { buildTreeIndex, type TreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { EmptyState, PanelFrame } from "./panel-ui";

/** Variants up to this many nodes open fully at first. */
const AUTO_EXPAND_MAX = 300;

/**
 * The rubric reduced to its Code Development leaves (PaperBench's Code-Dev variant), read-only.
 * Children render only when opened, so a 2,500-node rubric stays light. Its export is the
 * editor's Export button in Code-Dev view.
 */
export function CodeDevView({ rows }: { rows: readonly NodeRow[] }) {
  const { index, shares, keptLeaves, allLeaves } = useMemo(() => {
    const full = buildTreeIndex(rows);
    let allLeaves = 0;
    for (const row of full.preorder) if (full.isLeaf(row.key)) allLeaves++;
    const index = buildTreeIndex(toCodeDevRows(rows as NodeRow[]));
    let keptLeaves = 0;
    for (const row of index.preorder) if (index.isLeaf(row.key)) keptLeaves++;
    return { index, shares: effectiveShares(index), keptLeaves, allLeaves };
  }, [rows]);

  const rootKey = index.root?.key ?? null;
  // A small variant opens fully; a large one shows its first level. Once the user opens or closes
  // a node, their choice (a set of open keys) takes over.
  const small = index.preorder.length <= AUTO_EXPAND_MAX;
  const [custom, setCustom] = useState<ReadonlySet<string> | null>(null);
  const internalKeys = () => index.preorder.filter((r) => !index.isLeaf(r.key)).map((r) => r.key);
  const isOpen = (key: string) => (custom ? custom.has(key) : small || key === rootKey);
  const toggle = (key: string) =>
    setCustom((prev) => {
      const next = new Set(prev ?? (small ? internalKeys() : rootKey ? [rootKey] : []));
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const expandAll = () => setCustom(new Set(internalKeys()));
  const collapseAll = () => setCustom(new Set(rootKey ? [rootKey] : []));

  const empty = keptLeaves === 0 || !index.root;
  return (
    <PanelFrame
      title="Code-Dev view"
      testId="code-dev-view"
      actions={
        !empty && (
          <>
            <button
              type="button"
              className="text-xs text-zinc-600 hover:text-indigo-700 hover:underline"
              onClick={expandAll}
            >
              Expand all
            </button>
            <span className="text-zinc-300">·</span>
            <button
              type="button"
              className="text-xs text-zinc-600 hover:text-indigo-700 hover:underline"
              onClick={collapseAll}
            >
              Collapse
            </button>
          </>
        )
      }
    >
      <p className="text-xs text-zinc-600" data-testid="code-dev-header">
        Code-Dev variant: {keptLeaves.toLocaleString("en")} of {allLeaves.toLocaleString("en")} leaves (Code Development
        only)
      </p>
      {empty ? (
        <EmptyState testId="code-dev-empty">
          <p className="font-medium text-zinc-700">
            No Code Development leaves: the Code-Dev variant of this rubric is empty.
          </p>
          <span className="mt-1 block text-xs text-zinc-500">
            Set a leaf&apos;s task category to “Code Development” to include it.
          </span>
        </EmptyState>
      ) : (
        <ul
          role="tree"
          aria-label="Code-Dev rubric tree"
          className="overflow-x-auto rounded-md border border-zinc-200 bg-white p-1.5 text-[13px]"
        >
          <CodeDevItem row={index.root!} depth={0} index={index} shares={shares} isOpen={isOpen} toggle={toggle} />
        </ul>
      )}
    </PanelFrame>
  );
}

function CodeDevItem({
  row,
  depth,
  index,
  shares,
  isOpen,
  toggle,
}: {
  row: NodeRow;
  depth: number;
  index: TreeIndex;
  shares: ReadonlyMap<string, number>;
  isOpen(key: string): boolean;
  toggle(key: string): void;
}) {
  const kids = index.children(row.key);
  const leaf = kids.length === 0;
  const open = !leaf && isOpen(row.key);
  const share = shares.get(row.key) ?? 0;
  return (
    <li role="treeitem" aria-expanded={leaf ? undefined : open} aria-selected={false} data-key={row.key}>
      <div
        className="flex items-start gap-1.5 rounded px-1 py-0.5 hover:bg-zinc-50"
        style={{ paddingLeft: depth * 14 + 4 }}
      >
        {leaf ? (
          <span className="mt-1.5 ml-1 mr-0.5 size-1.5 shrink-0 rounded-full bg-sky-400" aria-hidden />
        ) : (
          <button
            type="button"
            aria-label={open ? "Collapse" : "Expand"}
            onClick={() => toggle(row.key)}
            className="mt-0.5 shrink-0 rounded text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900"
          >
            {open ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
          </button>
        )}
        <span className="min-w-0 flex-1 whitespace-pre-wrap break-words text-zinc-800">
          {row.requirements || <span className="italic text-zinc-400">(no requirement text)</span>}
          {row.finegrainedTaskCategory && (
            <span className="ml-1.5 whitespace-nowrap rounded bg-zinc-100 px-1 text-[11px] text-zinc-600">
              {row.finegrainedTaskCategory}
            </span>
          )}
        </span>
        <span className="shrink-0 font-mono text-[11px] text-zinc-500" title="weight">
          ×{row.weight}
        </span>
        <span
          className="w-12 shrink-0 text-right font-mono text-[11px] tabular-nums text-indigo-700"
          title="Share of the Code-Dev score"
        >
          {formatShare(share)}
        </span>
      </div>
      {open && (
        <ul role="group">
          {kids.map((child) => (
            <CodeDevItem
              key={child.key}
              row={child}
              depth={depth + 1}
              index={index}
              shares={shares}
              isOpen={isOpen}
              toggle={toggle}
            />
          ))}
        </ul>
      )}
    </li>
  );
}
