"use client";

import {
  History,
  Info,
  MessageSquare,
  PanelRightClose,
  PanelRightOpen,
  PieChart,
  Trash2,
  TriangleAlert,
  type LucideIcon,
} from "lucide-react";
import dynamic from "next/dynamic";
import { useMemo, type ReactNode } from "react";
import { IconButton } from "@/components/ui/icon-button";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { CommentsPanel } from "./comments/comments-panel";
import { NodeComments } from "./comments/node-comments";
import type { CommentsApi } from "./comments/use-comments";
import type { Derived, RubricStats } from "./derive";
import { Inspector } from "./inspector";
import { NodeHistory } from "./node-history";
import { DeletedPanel } from "./panels/deleted-panel";
import { LintPanel } from "./panels/lint-panel";
import { VersionsPanel } from "./panels/versions-panel";
import { MultiSelection, NothingSelected } from "./selection-summary";
import type { EditorOperations } from "./use-editor-operations";
import type { RubricStore } from "./rubric-store";
import { useRubricRevision } from "./use-rubric-store";

/** The summary's chart library (recharts, 360 KB of script) loads when the tab is first opened. */
const SummaryPanel = dynamic(() => import("./panels/summary-panel").then((m) => m.SummaryPanel), {
  ssr: false,
  loading: () => <p className="p-4 text-sm text-zinc-500">Loading the summary…</p>,
});

export type Tab = "inspector" | "comments" | "lint" | "summary" | "versions" | "deleted";

/** The editor's side panel: the selected node (inspector, its comments and history), comments, lint, summary, versions, deleted nodes. */
export function EditorSidePanel({
  width,
  hidden,
  onHidden,
  tab,
  onTab,
  paperId,
  canEdit,
  rows,
  store,
  derived,
  stats,
  comments,
  selectedRow,
  liveSelection,
  ops,
  onSelect,
}: {
  width: number;
  /** Folded to a rail, leaving the tree the width (a narrow window). */
  hidden: boolean;
  onHidden(hidden: boolean): void;
  tab: Tab;
  onTab(tab: Tab): void;
  paperId: string;
  canEdit: boolean;
  rows: readonly NodeRow[];
  /** Read for the revision, by the parts that show it (see `AtRevision`). */
  store: RubricStore;
  derived: Derived;
  stats: RubricStats;
  comments: CommentsApi;
  selectedRow: NodeRow | undefined;
  liveSelection: string[];
  ops: EditorOperations;
  onSelect(key: string): void;
}) {
  const selectedFindings = useMemo(
    () => (selectedRow ? derived.findings.filter((f) => f.key === selectedRow.key) : []),
    [derived.findings, selectedRow],
  );
  if (hidden) {
    return (
      <aside
        className="ml-3 flex w-10 shrink-0 flex-col items-center rounded-lg border border-zinc-200 bg-white py-1.5 shadow-xs"
        aria-label="Details"
        data-testid="side-panel"
      >
        <IconButton label="Show the side panel" onClick={() => onHidden(false)} testId="side-show">
          <PanelRightOpen size={15} />
        </IconButton>
      </aside>
    );
  }
  return (
    <aside
      style={{ width }}
      className="flex shrink-0 flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs"
      aria-label="Details"
      data-testid="side-panel"
    >
      <div className="@container flex shrink-0 items-center border-b border-zinc-200 pl-2 pr-1">
        {/*
        One line at any width: each tab has an icon, and its name shows beside it when the panel is
        wide enough for every name, else only on the chosen tab (the others keep it for screen
        readers and as a tooltip).
      */}
        <div role="tablist" aria-label="Side panel" className="flex min-w-0 flex-1 flex-nowrap overflow-x-auto">
          {(
            [
              ["inspector", "Node", Info, null],
              ["comments", "Comments", MessageSquare, comments.threads.filter((t) => !t.resolvedAt).length || null],
              ["lint", "Lint", TriangleAlert, stats.errors + stats.warnings || null],
              ["summary", "Summary", PieChart, null],
              ["versions", "Versions", History, null],
              ["deleted", "Deleted", Trash2, null],
            ] as [Tab, string, LucideIcon, number | null][]
          ).map(([id, label, Icon, badge]) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`tab-${id}`}
              aria-selected={tab === id}
              aria-controls={`panel-${id}`}
              data-testid={`tab-${id}`}
              title={label}
              onClick={() => onTab(id)}
              className={`-mb-px flex shrink-0 items-center gap-1 whitespace-nowrap border-b-2 px-[5px] py-2 text-[13px] font-medium transition-colors ${
                tab === id
                  ? "border-indigo-600 text-indigo-700"
                  : "border-transparent text-zinc-600 hover:text-zinc-900"
              }`}
            >
              <Icon size={14} aria-hidden className="shrink-0" />
              <span className={tab === id ? undefined : "sr-only @min-[34rem]:not-sr-only"}>{label}</span>
              {badge !== null && (
                <span
                  data-testid={`tab-${id}-badge`}
                  className={`rounded-full px-1.5 text-[10px] tabular-nums ${
                    id === "comments"
                      ? "bg-sky-100 text-sky-800"
                      : stats.errors
                        ? "bg-red-100 text-red-700"
                        : "bg-amber-100 text-amber-800"
                  }`}
                >
                  {badge.toLocaleString("en")}
                </span>
              )}
            </button>
          ))}
        </div>
        <span className="shrink-0">
          <IconButton label="Hide the side panel" onClick={() => onHidden(true)} testId="side-hide">
            <PanelRightClose size={15} />
          </IconButton>
        </span>
      </div>
      <div
        role="tabpanel"
        id={`panel-${tab}`}
        aria-labelledby={`tab-${tab}`}
        className="min-h-0 flex-1 overflow-y-auto p-4"
      >
        {tab === "inspector" &&
          (liveSelection.length > 1 ? (
            <MultiSelection
              keys={liveSelection}
              derived={derived}
              canEdit={canEdit}
              onDelete={() => ops.deleteKeys(liveSelection)}
            />
          ) : selectedRow ? (
            <>
              <Inspector
                key={selectedRow.key}
                row={selectedRow}
                index={derived.index}
                shares={derived.shares}
                findings={selectedFindings}
                canEdit={canEdit}
                submit={ops.submit}
                onSelect={onSelect}
              />
              <NodeComments nodeKey={selectedRow.key} comments={comments} />
              <AtRevision store={store}>
                {(revision) => (
                  <NodeHistory
                    key={`history-${selectedRow.key}`}
                    paperId={paperId}
                    nodeKey={selectedRow.key}
                    revision={revision}
                  />
                )}
              </AtRevision>
            </>
          ) : (
            <NothingSelected canEdit={canEdit} />
          ))}
        {tab === "comments" && <CommentsPanel comments={comments} index={derived.index} onSelect={onSelect} />}
        {tab === "lint" && <LintPanel derived={derived} canEdit={canEdit} submit={ops.submit} onSelect={onSelect} />}
        {tab === "summary" && <SummaryPanel index={derived.index} shares={derived.shares} />}
        {tab === "versions" && (
          <AtRevision store={store}>
            {(revision) => (
              <VersionsPanel
                paperId={paperId}
                canEdit={canEdit}
                liveRows={rows}
                revision={revision}
                onRestored={ops.onRestored}
                onSelect={onSelect}
              />
            )}
          </AtRevision>
        )}
        {tab === "deleted" && (
          <AtRevision store={store}>
            {(revision) => (
              <DeletedPanel
                paperId={paperId}
                canEdit={canEdit}
                liveRows={rows}
                revision={revision}
                submit={ops.submit}
                onSelect={onSelect}
              />
            )}
          </AtRevision>
        )}
      </div>
    </aside>
  );
}

/**
 * Renders `children` with the rubric's revision, following the store: a save moves the revision,
 * and only what shows it renders again, not the panel (the inspector) around it.
 */
function AtRevision({ store, children }: { store: RubricStore; children(revision: number): ReactNode }) {
  return children(useRubricRevision(store));
}
