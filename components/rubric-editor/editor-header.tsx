"use client";

import { Code2, Keyboard, Redo2, Undo2 } from "lucide-react";
import { BackToPaperLink } from "@/components/layout/back-to-paper-link";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import type { PresencePerson } from "@/lib/live/presence-schemas";
import { ExportButton } from "./export-button";
import { PresenceAvatars } from "./presence/presence-avatars";
import { ReviewStatus, SignedOffNotice } from "./review-status";
import type { RubricStore } from "./rubric-store";
import { IconButton } from "@/components/ui/icon-button";
import { SaveState } from "./toolbar-controls";
import { useRubricSnapshot } from "./use-rubric-store";

/**
 * The editor's header: title, revision and save state, review status, who else is here, undo/redo,
 * the Code-Dev view, export, help; under it, the notice that a signed-off rubric goes back to draft
 * on a change. It follows the store itself: a save that changes only the save state and the
 * revision re-renders the header, not the editor around it.
 */
export function EditorHeader({
  paperId,
  title,
  canEdit,
  store,
  others,
  index,
  onSelect,
  codeDev,
  onToggleCodeDev,
  onHelp,
}: {
  paperId: string;
  title: string;
  canEdit: boolean;
  store: RubricStore;
  others: PresencePerson[];
  index: TreeIndex;
  onSelect(key: string): void;
  codeDev: boolean;
  onToggleCodeDev(): void;
  onHelp(): void;
}) {
  const snap = useRubricSnapshot(store);
  return (
    <>
      {/* One line at any width: the title gives way (it truncates) rather than the toolbar wrapping. */}
      <header className="flex items-center gap-x-4">
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <BackToPaperLink paperId={paperId} />
          <div className="min-w-0">
            <h1 className="truncate text-base font-semibold leading-tight text-zinc-900" data-testid="editor-title">
              {title}
            </h1>
            <p className="flex items-center gap-2 text-xs text-zinc-500">
              <span>Rubric editor</span>
              <span className="text-zinc-300">·</span>
              <span data-testid="editor-revision">revision {snap.revision}</span>
              <span className="text-zinc-300">·</span>
              <SaveState pending={snap.pendingCount} offline={snap.offline} />
              {!canEdit && (
                <>
                  <span className="text-zinc-300">·</span>
                  <span
                    className="rounded bg-zinc-200 px-1.5 py-px text-[11px] font-medium text-zinc-700"
                    data-testid="read-only-badge"
                  >
                    Read-only
                  </span>
                </>
              )}
            </p>
          </div>
          <ReviewStatus paperId={paperId} revision={snap.revision} canEdit={canEdit} store={store} />
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-2">
          <PresenceAvatars people={others} index={index} onSelect={onSelect} />
          {canEdit && (
            <div className="flex items-center rounded-md border border-zinc-300 bg-white">
              <IconButton
                label={snap.undoLabel ? `Undo: ${snap.undoLabel}` : "Undo"}
                onClick={() => store.undo()}
                disabled={!snap.canUndo}
                testId="undo-button"
              >
                <Undo2 size={15} />
              </IconButton>
              <span className="h-5 w-px bg-zinc-200" />
              <IconButton
                label={snap.redoLabel ? `Redo: ${snap.redoLabel}` : "Redo"}
                onClick={() => store.redo()}
                disabled={!snap.canRedo}
                testId="redo-button"
              >
                <Redo2 size={15} />
              </IconButton>
            </div>
          )}
          <button
            type="button"
            aria-pressed={codeDev}
            onClick={onToggleCodeDev}
            data-testid="code-dev-toggle"
            // Not buttonClass("secondary", …): its border and background would fight the pressed ones.
            className={`inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md border px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 ${
              codeDev
                ? "border-sky-600 bg-sky-600 text-white hover:bg-sky-700"
                : "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50"
            }`}
            title={
              codeDev
                ? "Showing the Code-Dev variant (only Code Development leaves): click to show the whole rubric"
                : "Show the Code-Dev variant: only Code Development leaves"
            }
          >
            <Code2 size={15} aria-hidden />
            Code-Dev view
            <span
              aria-hidden
              data-testid="code-dev-switch"
              className={`relative ml-0.5 inline-block h-4 w-7 rounded-full transition-colors ${codeDev ? "bg-white/90" : "bg-zinc-300"}`}
            >
              <span
                className={`absolute top-0.5 size-3 rounded-full transition-all ${codeDev ? "left-3.5 bg-sky-600" : "left-0.5 bg-white"}`}
              />
            </span>
          </button>
          <ExportButton paperId={paperId} codeDev={codeDev} beforeExport={() => store.whenIdle()} />
          <IconButton label="Keyboard shortcuts (?)" onClick={onHelp} testId="help-button" bordered>
            <Keyboard size={15} />
          </IconButton>
        </div>
      </header>
      <SignedOffNotice paperId={paperId} revision={snap.revision} canEdit={canEdit} />
    </>
  );
}
