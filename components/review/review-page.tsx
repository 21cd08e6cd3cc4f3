"use client";

import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { NodeApi, TreeApi } from "react-arborist";
import { toast } from "sonner";
import { useElementHeight } from "@/components/hooks/use-element-height";
import { useFillHeight } from "@/components/hooks/use-fill-height";
import { usePaneWidth } from "@/components/hooks/use-pane-width";
import { PaneResizer } from "@/components/ui/pane-resizer";
import { TreeBox, Workspace } from "@/components/ui/workspace";
import type { FileTarget } from "@/lib/judge/evidence";
import {
  NO_REVIEW_FILTERS,
  reviewFiltersActive,
  type ReviewFilters,
  type ReviewModel,
} from "@/lib/review/review-model";
import { AssignmentsDialog } from "./assignments-dialog";
import { LeafPanel } from "./leaf-panel";
import { ReviewFilterBar } from "./review-filter-bar";
import { ReviewHeader } from "./review-header";
import { ReviewShortcutsDialog } from "./review-shortcuts";
import { ReviewLoadError, ReviewSkeleton } from "./review-states";
import {
  ReviewRowContext,
  ReviewSelectedKey,
  ReviewTree,
  reviewRowHeight,
  treeItems,
  type ReviewRowContextValue,
  type ReviewTreeItem,
} from "./review-tree";
import { SubmissionPanel } from "./submission-panel";
import { chipText } from "./score-style";
import { useReviewKeys } from "./use-review-keys";
import { useReviewModel } from "./use-review-model";
import { useReviewScoring, useScoreDraft } from "./use-review-scoring";
import { initialSelection, useReviewSelection } from "./use-review-selection";
import { useReviewSettings } from "./use-review-settings";

/** The review page of one grading: the graded tree, the selected leaf, and the submission, side by side. */
export function ReviewPage({ gradingId, initialKey = null }: { gradingId: string; initialKey?: string | null }) {
  const { query, model } = useReviewModel(gradingId);
  const rootRef = useRef<HTMLDivElement>(null);
  const height = useFillHeight(rootRef, { min: 480, gap: 16 });

  if (query.isError) return <ReviewLoadError message={query.error.message} onRetry={() => void query.refetch()} />;
  if (!model) return <ReviewSkeleton rootRef={rootRef} height={height} />;
  return <LoadedReview gradingId={gradingId} model={model} rootRef={rootRef} height={height} initialKey={initialKey} />;
}

/**
 * Small trees open whole; large ones (pinn: 2,551 nodes) down to the roots' children and along the
 * path to the node the page opens on. Opened after mounting instead, that path would make
 * react-arborist build every node again and render the tree a second time before the first click.
 */
function initialOpen(model: ReviewModel, openOn: string | null): Record<string, boolean> {
  const open: Record<string, boolean> = {};
  for (const key of model.viewRoots) open[key] = true;
  if (model.viewSize <= 300) for (const n of model.nodes) open[n.key] = true;
  for (let key = openOn && model.node(openOn)?.parentKey; key; key = model.node(key)?.parentKey) open[key] = true;
  return open;
}

function LoadedReview({
  gradingId,
  model,
  rootRef,
  height,
  initialKey,
}: {
  gradingId: string;
  model: ReviewModel;
  rootRef: React.RefObject<HTMLDivElement | null>;
  height: number;
  /** The node the page's link names; else it opens on the first leaf to review. */
  initialKey: string | null;
}) {
  const version = useSyncExternalStore(model.subscribe, model.getVersion, model.getVersion);
  const { grading, viewer } = model.payload;
  const treeRef = useRef<TreeApi<ReviewTreeItem> | null>(null);
  const treeBoxRef = useRef<HTMLDivElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const unsureRef = useRef<HTMLInputElement>(null);
  const treeHeight = useElementHeight(treeBoxRef);
  const data = useMemo(() => treeItems(model), [model]);
  const [openOn] = useState(() => initialSelection(model, initialKey));
  const [initialOpenState] = useState(() => initialOpen(model, openOn));
  const [filters, setFilters] = useState<ReviewFilters>(NO_REVIEW_FILTERS);
  const [helpOpen, setHelpOpen] = useState(false);
  const [assignOpen, setAssignOpen] = useState<{ subtree: string | null; scope: "all" | "subtree" } | null>(null);
  const [evidence, setEvidence] = useState<FileTarget | null>(null);
  const drafts = useScoreDraft();
  const [settings, changeSettings] = useReviewSettings();
  const treePane = usePaneWidth("rubric-studio:review-tree-width", {
    narrow: 360,
    wide: 540,
    min: 260,
    max: 1100,
    side: "left",
  });
  const { selectedKey, selectedAt, select, onFocusKey, step, nextUnreviewed } = useReviewSelection({
    model,
    gradingId,
    openOn,
    treeRef,
    treeHeight,
    filters,
    drafts,
  });
  const { pending, setScore, commitDraft, cancelDraft, focusReason } = useReviewScoring({
    model,
    gradingId,
    viewer,
    selectedKey,
    selectedAt,
    reasonRef,
    drafts,
    onCommitted: settings.autoAdvance ? nextUnreviewed : null,
  });

  /* ---------- filters ---------- */
  const filterActive = reviewFiltersActive(filters);
  // The version is part of the token: a commit can move a leaf in or out of "unreviewed".
  const filterToken = filterActive
    ? `f:${filters.unreviewed}|${filters.invalid}|${filters.disagreement}|${filters.unsure}|${filters.category}|${version}`
    : "";
  const filterMatch = useCallback((node: NodeApi<ReviewTreeItem>) => model.matches(node.id, filters), [model, filters]);
  // Counted on every render, not memoised: the model changes in place (only `version` says so), and a walk over
  // the leaves is cheap next to rendering the tree.
  let matchCount = 0;
  if (filterActive) for (const i of model.leafOrder) if (model.matches(model.keyAt(i), filters)) matchCount++;
  const unsureCount = model.unsureCount();
  const focusUnsure = useCallback(() => {
    if (unsureRef.current) unsureRef.current.focus();
    else
      toast.info(
        selectedKey && model.isLeaf(selectedKey)
          ? "You cannot mark this leaf unsure (or did already)"
          : "Select a leaf first (j / k)",
      );
  }, [model, selectedKey]);

  useReviewKeys({ step, nextUnreviewed, setScore, focusReason, focusUnsure, toggleHelp: () => setHelpOpen((o) => !o) });

  /* ---------- rendering ---------- */
  const rowCtx = useMemo(
    (): ReviewRowContextValue => ({
      model,
      version,
      onSelect: select,
      wrap: settings.wrapRows,
    }),
    [model, version, select, settings.wrapRows],
  );
  const progress = model.progress();
  const rootScore = model.rootScore;

  return (
    <Workspace rootRef={rootRef} height={height} testId="review-page">
      <ReviewHeader
        model={model}
        progress={progress}
        pending={pending}
        onAssign={() => setAssignOpen({ subtree: selectedKey, scope: "all" })}
        onHelp={() => setHelpOpen(true)}
      />

      <div
        className="grid min-h-0 flex-1"
        style={{ gridTemplateColumns: `${treePane.width}px 0.75rem minmax(21rem,1fr) minmax(0,1fr)` }}
      >
        {/* ---------- graded tree ---------- */}
        <section
          className="flex min-w-0 flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs"
          aria-label="Graded tree"
        >
          <ReviewFilterBar
            filters={filters}
            setFilters={setFilters}
            categories={model.categories}
            filterActive={filterActive}
            matchCount={matchCount}
            unsureCount={unsureCount}
            wrapRows={settings.wrapRows}
            onWrapRows={(wrapRows) => changeSettings({ wrapRows })}
            onExpandAll={() => treeRef.current?.openAll()}
            onCollapseAll={() => treeRef.current?.closeAll()}
          />
          <TreeBox
            boxRef={treeBoxRef}
            testId="review-tree"
            filteredOut={filterActive && matchCount === 0 ? "No leaf matches these filters." : null}
          >
            <ReviewRowContext.Provider value={rowCtx}>
              <ReviewSelectedKey.Provider value={selectedKey}>
                {treeHeight > 0 && (
                  <ReviewTree
                    treeRef={treeRef}
                    data={data}
                    height={treeHeight}
                    initialOpenState={initialOpenState}
                    filterToken={filterToken}
                    filterMatch={filterMatch}
                    onFocusKey={onFocusKey}
                    rowHeight={reviewRowHeight(settings.wrapRows)}
                  />
                )}
              </ReviewSelectedKey.Provider>
            </ReviewRowContext.Provider>
          </TreeBox>
          <footer className="flex shrink-0 items-center gap-3 border-t border-zinc-200 bg-zinc-50/80 px-3 py-1 text-[11px] text-zinc-500">
            <span>
              {model.leafOrder.length.toLocaleString("en")} leaves
              {model.viewRoots[0] !== model.nodes[0]?.key && " in your part"}
            </span>
            <span className="ml-auto">
              <kbd className="font-mono">j</kbd>/<kbd className="font-mono">k</kbd> leaves ·{" "}
              <kbd className="font-mono">0</kbd>/<kbd className="font-mono">1</kbd> score ·{" "}
              <kbd className="font-mono">n</kbd> next unreviewed · <kbd className="font-mono">u</kbd> unsure ·{" "}
              <kbd className="font-mono">?</kbd> help
            </span>
          </footer>
        </section>

        <PaneResizer
          pane={treePane}
          label="Resize the tree"
          title="Drag (or use the arrow keys) to resize the tree"
          testId="tree-resizer"
        />

        {/* ---------- selected leaf ---------- (relative: the sr-only labels in it, absolutely placed, stay in its scroll box instead of lengthening the page) */}
        <section
          className="relative min-w-0 overflow-y-auto rounded-lg border border-zinc-200 bg-white p-4 shadow-xs"
          aria-label="Selected node"
        >
          {selectedKey ? (
            <LeafPanel
              model={model}
              version={version}
              gradingId={gradingId}
              selectedKey={selectedKey}
              canReview={viewer.canReview}
              autoAdvance={settings.autoAdvance}
              onAutoAdvance={(autoAdvance) => changeSettings({ autoAdvance })}
              draft={drafts.draft}
              reason={drafts.reason}
              reasonRef={reasonRef}
              unsureRef={unsureRef}
              onUnsureFlagged={nextUnreviewed}
              committing={false}
              onDraft={setScore}
              onReason={drafts.setReason}
              onCommit={commitDraft}
              onCancel={cancelDraft}
              onAssignSubtree={
                viewer.canAssign ? (key) => setAssignOpen({ subtree: key, scope: "subtree" }) : undefined
              }
              onOpenEvidence={(path, startLine, endLine) =>
                setEvidence((e) => ({ path, startLine, endLine, seq: (e?.seq ?? 0) + 1 }))
              }
            />
          ) : (
            <p className="text-sm text-zinc-500">Select a leaf (j / k).</p>
          )}
        </section>

        {/* ---------- submission ---------- */}
        <section
          className="ml-3 flex min-w-0 flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs"
          aria-label="Submission"
        >
          <SubmissionPanel gradingId={gradingId} submissionId={grading.submissionId} target={evidence} />
        </section>
      </div>

      <ReviewShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      {viewer.canAssign && (
        <AssignmentsDialog
          open={assignOpen !== null}
          onClose={() => setAssignOpen(null)}
          gradingId={gradingId}
          paperId={grading.paperId}
          model={model}
          subtreeKey={assignOpen?.subtree ?? null}
          initialScope={assignOpen?.scope ?? "all"}
        />
      )}
      <span className="sr-only" aria-live="polite">
        {rootScore === null ? "" : `Score ${chipText(rootScore, false)}`}
      </span>
    </Workspace>
  );
}
