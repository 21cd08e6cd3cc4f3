"use client";

import { ChevronsDownUp, ChevronsUpDown, Copy, CornerDownRight, ListPlus, Trash2 } from "lucide-react";
import { useMemo } from "react";
import type { TreeApi } from "react-arborist";
import { LINT_CODES } from "@/lib/rubric/editor-lint";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { FINEGRAINED_TASK_CATEGORIES, TASK_CATEGORIES } from "@/lib/rubric/types";
import { NO_FILTERS, NONE, type Derived, type TreeItem } from "./derive";
import { lintCodeLabel } from "./panels/lint-panel";
import { IconButton } from "@/components/ui/icon-button";
import { FilterSelect, SearchBox } from "./toolbar-controls";
import type { EditorOperations } from "./use-editor-operations";
import type { TreeSearch } from "./use-tree-search";

/** Above the tree: search, filters, expand to a depth, and the node commands on the selection. */
export function TreeToolbar({
  search: s,
  searchRef,
  derived,
  treeRef,
  canEdit,
  primary,
  selectedRow,
  liveSelection,
  ops,
}: {
  search: TreeSearch;
  searchRef: React.RefObject<HTMLInputElement | null>;
  derived: Derived;
  treeRef: React.RefObject<TreeApi<TreeItem> | null>;
  canEdit: boolean;
  primary: string | null;
  selectedRow: NodeRow | undefined;
  liveSelection: string[];
  ops: EditorOperations;
}) {
  const { findings, maxDepth, index } = derived;
  const expandToDepth = (depth: number) => {
    const tree = treeRef.current;
    if (!tree) return;
    for (const row of index.preorder) {
      if (index.isLeaf(row.key)) continue;
      if (index.depthOf(row.key) < depth) tree.open(row.key, false);
      else tree.close(row.key, false);
    }
    tree.redrawList();
  };
  const lintCodesPresent = useMemo(() => {
    const present = new Set(findings.map((f) => f.code));
    return LINT_CODES.filter((c) => present.has(c));
  }, [findings]);
  const multi = liveSelection.length > 1;
  const { filters, setFilters } = s;
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-2.5 py-2" data-testid="tree-toolbar">
      <SearchBox
        inputRef={searchRef}
        value={s.search}
        onChange={s.setSearch}
        count={s.matches.length}
        at={s.currentAt}
        onStep={s.step}
      />
      <FilterSelect
        label="Category"
        testId="filter-category"
        value={filters.task}
        onChange={(task) => setFilters((f) => ({ ...f, task }))}
        options={[...TASK_CATEGORIES.map((c) => [c, c] as [string, string]), [NONE, "No category"]]}
      />
      <FilterSelect
        label="Fine-grained"
        testId="filter-finegrained"
        value={filters.fine}
        onChange={(fine) => setFilters((f) => ({ ...f, fine }))}
        options={[
          ...FINEGRAINED_TASK_CATEGORIES.map((c) => [c, c] as [string, string]),
          [NONE, "No fine-grained category"],
        ]}
      />
      <FilterSelect
        label="Problems"
        testId="filter-lint"
        value={filters.lint}
        onChange={(lint) => setFilters((f) => ({ ...f, lint }))}
        options={[
          ["any", "Any problem"],
          ["error", "Any error"],
          ["warning", "Any warning"],
          ...lintCodesPresent.map((c) => [c, lintCodeLabel(c)] as [string, string]),
        ]}
      />
      {s.filterActive && (
        <span className="flex items-center gap-1.5 text-xs text-zinc-600" data-testid="filter-count">
          {s.filterSet!.size.toLocaleString("en")} match{s.filterSet!.size === 1 ? "" : "es"}
          <button
            type="button"
            onClick={() => setFilters(NO_FILTERS)}
            className="rounded px-1 text-indigo-700 hover:bg-indigo-50"
          >
            Clear filters
          </button>
        </span>
      )}
      <div className="ml-auto flex items-center gap-1">
        <label className="sr-only" htmlFor="expand-depth">
          Expand to depth
        </label>
        <select
          id="expand-depth"
          data-testid="expand-depth"
          value=""
          onChange={(e) => {
            if (e.target.value) expandToDepth(Number(e.target.value));
          }}
          className="h-8 w-36 rounded-md border border-zinc-300 bg-white px-1.5 text-xs text-zinc-700 hover:bg-zinc-50"
          title="Expand to depth: show the levels down to the chosen one"
        >
          <option value="">Expand to depth…</option>
          {/* Depths count levels with the root as 1, as the footer does: "Depth 3" shows three levels. */}
          {Array.from({ length: Math.max(1, maxDepth) }, (_, i) => i + 2).map((levels) => (
            <option key={levels} value={levels - 1}>
              Depth {levels}
              {levels === maxDepth + 1 ? " (all)" : ""}
            </option>
          ))}
        </select>
        <IconButton label="Expand all" onClick={() => expandToDepth(Infinity)} testId="expand-all" bordered>
          <ChevronsUpDown size={15} />
        </IconButton>
        <IconButton label="Collapse all" onClick={() => expandToDepth(1)} testId="collapse-all" bordered>
          <ChevronsDownUp size={15} />
        </IconButton>
        {canEdit && (
          <>
            <span className="mx-1 h-5 w-px bg-zinc-200" />
            <IconButton
              label="Add child (a)"
              onClick={() => ops.addChild(primary)}
              disabled={!selectedRow}
              testId="add-child"
              bordered
            >
              <CornerDownRight size={15} />
            </IconButton>
            <IconButton
              label="Add sibling (s)"
              onClick={() => ops.addSibling(primary)}
              disabled={!selectedRow || selectedRow.parentKey === null}
              testId="add-sibling"
              bordered
            >
              <ListPlus size={15} />
            </IconButton>
            <IconButton
              label="Duplicate subtree (d)"
              onClick={() => ops.duplicate(primary)}
              disabled={!selectedRow || selectedRow.parentKey === null}
              testId="duplicate"
              bordered
            >
              <Copy size={15} />
            </IconButton>
            <IconButton
              label="Delete subtree (Delete)"
              onClick={() => ops.deleteKeys(liveSelection.length ? liveSelection : primary ? [primary] : [])}
              disabled={!selectedRow || (!multi && selectedRow.parentKey === null)}
              testId="delete"
              bordered
              danger
            >
              <Trash2 size={15} />
            </IconButton>
          </>
        )}
      </div>
    </div>
  );
}
