"use client";

import type { RubricStats } from "./derive";
import type { DropNote } from "./use-drop-note";

/** The tree's column titles, aligned with the rows' cells. */
export function TreeColumnHeader() {
  return (
    <div
      className="flex h-7 shrink-0 items-center gap-1.5 border-b border-zinc-100 bg-zinc-50/80 pr-3 text-[10px] font-semibold uppercase tracking-wide text-zinc-500"
      style={{ paddingLeft: 2 + 24 + 16 }}
      aria-hidden
    >
      <span className="flex-1">Requirement</span>
      <span className="hidden w-44 text-right 2xl:block">Fine-grained</span>
      <span className="w-20 text-right">Category</span>
      <span className="w-10 text-right">Weight</span>
      <span className="w-16 text-right">Share</span>
    </div>
  );
}

/**
 * Below the tree: its size and depth, and the lint counts (a click opens the lint tab). While a row
 * is dragged, where it would go, in words.
 */
export function TreeStatsFooter({
  stats,
  maxDepth,
  canEdit,
  onLint,
  drop,
}: {
  stats: RubricStats;
  maxDepth: number;
  canEdit: boolean;
  onLint(): void;
  drop: DropNote | null;
}) {
  const footer =
    "flex shrink-0 items-center gap-3 whitespace-nowrap border-t border-zinc-200 bg-zinc-50/80 px-3 py-1.5 text-xs text-zinc-500";
  // While a row is dragged, the words take the whole footer: the counts can wait, the target cannot.
  if (drop) {
    return (
      <footer className={footer} data-testid="editor-stats">
        <span
          data-testid="drop-note"
          data-kind={drop.kind}
          role="status"
          title={drop.text}
          className={`min-w-0 truncate font-medium ${drop.kind === "none" ? "text-red-700" : "text-indigo-800"}`}
        >
          {drop.text}
        </span>
      </footer>
    );
  }
  return (
    <footer className={footer} data-testid="editor-stats">
      <span>{stats.nodes.toLocaleString("en")} nodes</span>
      <span>{stats.leaves.toLocaleString("en")} leaves</span>
      <span data-testid="editor-depth">depth {maxDepth + 1}</span>
      <button type="button" className="flex items-center gap-1 rounded px-1 hover:bg-zinc-200" onClick={onLint}>
        <span className={`size-2 rounded-full ${stats.errors ? "bg-red-500" : "bg-zinc-300"}`} />
        {stats.errors.toLocaleString("en")} error{stats.errors === 1 ? "" : "s"}
        <span className={`ml-1.5 size-2 rounded-full ${stats.warnings ? "bg-amber-400" : "bg-zinc-300"}`} />
        {stats.warnings.toLocaleString("en")} warning{stats.warnings === 1 ? "" : "s"}
      </button>
      {canEdit && (
        <span className="ml-auto hidden min-w-0 truncate lg:inline">
          Drag rows to move them · <kbd className="font-mono">?</kbd> for shortcuts
        </span>
      )}
    </footer>
  );
}
