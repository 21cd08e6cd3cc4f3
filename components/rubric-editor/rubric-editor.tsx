"use client";

import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { TreeApi } from "react-arborist";
import { useElementHeight } from "@/components/hooks/use-element-height";
import { useFillHeight } from "@/components/hooks/use-fill-height";
import { usePaneWidth } from "@/components/hooks/use-pane-width";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { openToDepth, rubricStats, type Derived, type TreeItem } from "./derive";
import { EditorHeader } from "./editor-header";
import { EditorSidePanel, type Tab } from "./editor-side-panel";
import { PaneResizer } from "@/components/ui/pane-resizer";
import { TreeBox, Workspace } from "@/components/ui/workspace";
import { EditorLoadError, EditorSkeleton, EmptyRubric } from "./editor-states";
import { EditorTree } from "./editor-tree";
import { RowContext, type RowContextValue } from "./tree-row-content";
import { CodeDevView } from "./panels/code-dev-view";
import { useComments } from "./comments/use-comments";
import { useEditingKey } from "./presence/use-editing-key";
import { presenceByNode, usePresence } from "./presence/use-presence";
import type { RubricStore } from "./rubric-store";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { TreeColumnHeader, TreeStatsFooter } from "./tree-frame";
import { TreeToolbar } from "./tree-toolbar";
import { useDerivedRubric } from "./use-derived-rubric";
import { useEditorOperations } from "./use-editor-operations";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { useLeaveWarning } from "./use-leave-warning";
import { useRemoteDeleteNotice } from "./use-remote-delete-notice";
import { useRubricStore } from "./use-rubric-store";
import { useDropNote } from "./use-drop-note";
import { useTreeSearch } from "./use-tree-search";
import { useTreeSelection } from "./use-tree-selection";
import { useLinkedNode } from "./use-linked-node";

/** The rubric editor: a virtualized tree of the live rubric, an inspector, lint, summary and versions. */
export function RubricEditor({
  paperId,
  title,
  canEdit: canEditProp,
}: {
  paperId: string;
  title: string;
  canEdit: boolean;
}) {
  const { snap, store } = useRubricStore(paperId, canEditProp);
  const canEdit = snap.canEdit;
  const { derived, error } = useDerivedRubric(snap.rows, snap.dismissals, snap.pendingCount);

  useLeaveWarning(store);

  const rootRef = useRef<HTMLDivElement>(null);
  const height = useFillHeight(rootRef, { min: 420, gap: 20 });
  // After "Start from scratch", the new root opens in edit mode.
  const [editRootOnMount, setEditRootOnMount] = useState(false);

  if (snap.status === "loading")
    return <EditorSkeleton title={title} paperId={paperId} rootRef={rootRef} height={height} />;
  if (snap.status === "error" || error) {
    return (
      <EditorLoadError
        paperId={paperId}
        message={snap.loadError ?? error}
        onRetry={() => void store.load()}
        rootRef={rootRef}
      />
    );
  }
  if (!derived.index.root) {
    return (
      <EmptyRubric
        paperId={paperId}
        title={title}
        canEdit={canEdit}
        store={store}
        pending={snap.pendingCount > 0}
        onStart={() => setEditRootOnMount(true)}
      />
    );
  }
  return (
    <LoadedEditor
      key={derived.index.root.key}
      paperId={paperId}
      title={title}
      canEdit={canEdit}
      store={store}
      rows={snap.rows}
      derived={derived}
      rootRef={rootRef}
      height={height}
      editRootOnMount={editRootOnMount}
    />
  );
}

interface LoadedEditorProps {
  paperId: string;
  title: string;
  canEdit: boolean;
  store: RubricStore;
  /**
   * The shown rows, not the whole snapshot: a save that changes only the save state leaves them as
   * they were, and this memoized editor is not rendered again (the header follows the store itself).
   */
  rows: readonly NodeRow[];
  derived: Derived;
  rootRef: React.RefObject<HTMLDivElement | null>;
  height: number;
  editRootOnMount: boolean;
}

// Memoized: the lint's deferred pass re-renders RubricEditor, and when the lint did not change
// (see `deriveLint`) nothing below needs to render again.
const LoadedEditor = memo(function LoadedEditor({
  paperId,
  title,
  canEdit,
  store,
  rows,
  derived,
  rootRef,
  height,
  editRootOnMount,
}: LoadedEditorProps) {
  const treeRef = useRef<TreeApi<TreeItem> | null>(null);
  const treeBoxRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [tab, setTab] = useState<Tab>("inspector");
  const [codeDev, setCodeDev] = useState(false);
  const treeHeight = useElementHeight(treeBoxRef, !codeDev);
  const [helpOpen, setHelpOpen] = useState(false);
  const side = usePaneWidth("rubric-editor.side-width", { narrow: 320, wide: 400, min: 280, max: 720, side: "right" });
  const [sideHidden, setSideHidden] = useState(false);
  // Latest values for the stable callbacks react-arborist and the keyboard hold.
  const latest = useRef({ derived, canEdit });
  latest.current = { derived, canEdit };

  // Root and its children open at first.
  const [initialOpenState] = useState(() => openToDepth(derived.index, 1));

  const { primary, selectedRow, liveSelection, requestSelect, onSelect } = useTreeSelection(treeRef, derived);
  const revealMatch = useCallback((key: string) => requestSelect(key, "quiet"), [requestSelect]);
  const search = useTreeSearch(derived, revealMatch);
  const { unhide } = search;

  /** Select a node from anywhere (a panel, the search): shows it, opening its ancestors and dropping a filter that hides it. */
  const selectKey = useCallback(
    (key: string) => {
      if (!latest.current.derived.index.byKey.has(key)) return;
      setCodeDev(false);
      unhide(key);
      requestSelect(key, "quiet");
    },
    [requestSelect, unhide],
  );
  useLinkedNode(selectKey, treeHeight > 0);

  useEffect(() => {
    const root = latest.current.derived.index.root;
    if (editRootOnMount && root && latest.current.canEdit) requestSelect(root.key, "edit");
  }, [editRootOnMount, requestSelect]);

  const ops = useEditorOperations({ store, treeRef, derived, canEdit, requestSelect });

  /* ---------- keyboard ---------- */
  const actions = useRef(ops);
  actions.current = ops;
  const selectionRef = useRef({ primary, liveSelection });
  selectionRef.current = { primary, liveSelection };
  useEditorShortcuts({
    store,
    treeRef,
    searchRef,
    canEditRef: latest,
    selectionRef,
    actions,
    toggleHelp: () => setHelpOpen((o) => !o),
  });

  /* ---------- people: presence and comments ---------- */
  const editingKey = useEditingKey(rootRef);
  const others = usePresence(store, paperId, { selectedKey: primary, editingKey });
  const presence = useMemo(() => presenceByNode(others), [others]);
  const comments = useComments(store, paperId);
  useRemoteDeleteNotice(store, primary);

  const { needle, current: currentMatch } = search;
  const rowCtx = useMemo<RowContextValue>(
    () => ({
      index: derived.index,
      shares: derived.shares,
      lintByKey: derived.lintByKey,
      canEdit,
      needle,
      currentMatch,
      presence,
      openThreads: comments.openByNode,
      saveRequirements: ops.saveRequirements,
    }),
    [derived, canEdit, needle, currentMatch, presence, comments.openByNode, ops.saveRequirements],
  );
  const stats = useMemo(() => rubricStats(derived), [derived]);
  const dropNote = useDropNote(treeRef, derived.index, !codeDev && treeHeight > 0);

  return (
    <Workspace rootRef={rootRef} height={height} testId="rubric-editor">
      <EditorHeader
        paperId={paperId}
        title={title}
        canEdit={canEdit}
        store={store}
        others={others}
        index={derived.index}
        onSelect={selectKey}
        codeDev={codeDev}
        onToggleCodeDev={() => setCodeDev((v) => !v)}
        onHelp={() => setHelpOpen(true)}
      />

      <div className="flex min-h-0 flex-1">
        <section
          className="flex min-w-0 flex-1 flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs"
          aria-label="Rubric tree"
        >
          {codeDev ? (
            <div className="min-h-0 flex-1 overflow-auto p-4">
              <CodeDevView rows={rows} />
            </div>
          ) : (
            <>
              <TreeToolbar
                search={search}
                searchRef={searchRef}
                derived={derived}
                treeRef={treeRef}
                canEdit={canEdit}
                primary={primary}
                selectedRow={selectedRow}
                liveSelection={liveSelection}
                ops={ops}
              />
              <TreeColumnHeader />
              <TreeBox
                boxRef={treeBoxRef}
                testId="editor-tree"
                filteredOut={
                  search.filterActive && search.filterSet!.size === 0 ? "No node matches these filters." : null
                }
              >
                <RowContext.Provider value={rowCtx}>
                  {treeHeight > 0 && (
                    <EditorTree
                      treeRef={treeRef}
                      data={derived.data}
                      height={treeHeight}
                      canEdit={canEdit}
                      initialOpenState={initialOpenState}
                      filterToken={search.filterToken}
                      filterMatch={search.filterMatch}
                      disableDrop={ops.disableDrop}
                      onMove={ops.onMove}
                      onSelect={onSelect}
                    />
                  )}
                </RowContext.Provider>
              </TreeBox>
              <TreeStatsFooter
                stats={stats}
                maxDepth={derived.maxDepth}
                canEdit={canEdit}
                onLint={() => setTab("lint")}
                drop={dropNote}
              />
            </>
          )}
        </section>

        {!sideHidden && (
          <PaneResizer
            pane={side}
            label="Resize the side panel"
            title="Drag to resize the side panel"
            testId="side-resizer"
            className="w-3 shrink-0"
          />
        )}
        <EditorSidePanel
          width={side.width}
          hidden={sideHidden}
          onHidden={setSideHidden}
          tab={tab}
          onTab={setTab}
          paperId={paperId}
          canEdit={canEdit}
          rows={rows}
          store={store}
          derived={derived}
          stats={stats}
          comments={comments}
          selectedRow={selectedRow}
          liveSelection={liveSelection}
          ops={ops}
          onSelect={selectKey}
        />
      </div>
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} canEdit={canEdit} />
    </Workspace>
  );
});
