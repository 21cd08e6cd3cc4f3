"use client";

import { GripVertical } from "lucide-react";
import { memo, useContext, type RefObject } from "react";
import {
  Tree,
  type CursorProps,
  type DragPreviewProps,
  type MoveHandler,
  type NodeApi,
  type RowRendererProps,
  type TreeApi,
} from "react-arborist";
import type { TreeItem } from "./derive";
import { NodeView, RowContext, useRowContext } from "./tree-row-content";

type OpenMap = { [id: string]: boolean };

export const ROW_HEIGHT = 32;
export const INDENT = 18;

const RowView = memo(function RowView({ node, attrs, innerRef, children }: RowRendererProps<TreeItem>) {
  const ctx = useRowContext();
  const isCurrent = ctx.currentMatch === node.id;
  const selected = node.isSelected;
  const dropInside = node.willReceiveDrop;
  // One background and one ring per state, the drop target first: two classes of a kind would
  // fight (the stylesheet's order decides, not this list's), and the target went unseen.
  const cls = [
    "group cursor-default select-none border-l-2 text-sm outline-none",
    dropInside
      ? "border-indigo-600 bg-indigo-100 shadow-[inset_0_0_0_2px_var(--color-indigo-500)]"
      : selected
        ? "border-indigo-500 bg-indigo-50"
        : isCurrent
          ? "border-amber-400 bg-amber-50"
          : "border-transparent hover:bg-zinc-50",
    !dropInside && node.isFocused ? "shadow-[inset_0_0_0_1px_var(--color-indigo-300)]" : "",
    node.isDragging ? "opacity-50" : "",
  ].join(" ");
  return (
    <div
      {...attrs}
      ref={innerRef}
      data-testid="tree-row"
      data-key={node.id}
      data-node-id={ctx.index.byKey.get(node.id)?.nodeId}
      data-selected={selected || undefined}
      data-current-match={isCurrent || undefined}
      data-drop-target={dropInside ? "inside" : undefined}
      className={cls}
      style={{ ...attrs.style, minWidth: 0, zIndex: node.isEditing ? 20 : undefined }}
      onFocus={(e) => e.stopPropagation()}
      onClick={node.handleClick}
      onDoubleClick={() => {
        if (ctx.canEdit && !node.isEditing) void node.edit();
      }}
    >
      {children}
    </div>
  );
});

/** The "between" target: a line from the drop depth's indent (the dot sits where the moved row's toggle will be). */
function DropCursor({ top, left, indent }: CursorProps) {
  return (
    <div
      data-testid="drop-line"
      data-level={Math.round(left / indent)}
      className="pointer-events-none absolute right-2 z-30 flex items-center"
      style={{ top: top - 3, left: left + 2 }}
    >
      <span className="size-2.5 shrink-0 rounded-full border-2 border-indigo-600 bg-white" />
      <span className="h-[3px] flex-1 rounded bg-indigo-600" />
    </div>
  );
}

function DragPreview({ mouse, id, dragIds, isDragging }: DragPreviewProps) {
  const ctx = useContext(RowContext);
  if (!isDragging || !mouse || !id) return null;
  const row = ctx?.index.byKey.get(id);
  const text = row?.requirements.replace(/\s+/g, " ").trim() || "(empty)";
  return (
    <div
      className="pointer-events-none fixed left-0 top-0 z-[100] flex max-w-sm items-center gap-1.5 rounded-md bg-zinc-900/90 px-2.5 py-1.5 text-xs text-white shadow-xl"
      style={{ transform: `translate(${mouse.x + 14}px, ${mouse.y + 10}px)` }}
    >
      <GripVertical size={12} className="shrink-0 opacity-70" />
      <span className="truncate">{text}</span>
      {dragIds.length > 1 && (
        <span className="shrink-0 rounded-full bg-indigo-500 px-1.5 font-medium">{dragIds.length}</span>
      )}
    </div>
  );
}

export interface EditorTreeProps {
  treeRef: RefObject<TreeApi<TreeItem> | null>;
  data: TreeItem[];
  height: number;
  canEdit: boolean;
  initialOpenState: OpenMap;
  /** Non-empty while filters are on: react-arborist then shows `filterMatch` nodes and their ancestors. */
  filterToken: string;
  filterMatch: (node: NodeApi<TreeItem>, term: string) => boolean;
  disableDrop: (args: { parentNode: NodeApi<TreeItem>; dragNodes: NodeApi<TreeItem>[]; index: number }) => boolean;
  onMove: MoveHandler<TreeItem>;
  onSelect: (nodes: NodeApi<TreeItem>[]) => void;
}

const isRootItem = (d: TreeItem) => d.isRoot;

/** The virtualized tree. Every prop must keep its identity between renders (react-arborist rebuilds on any change). */
export const EditorTree = memo(function EditorTree(props: EditorTreeProps) {
  return (
    <Tree<TreeItem>
      ref={props.treeRef}
      data={props.data}
      width="100%"
      height={props.height}
      rowHeight={ROW_HEIGHT}
      indent={INDENT}
      overscanCount={12}
      paddingBottom={ROW_HEIGHT * 2}
      openByDefault={false}
      initialOpenState={props.initialOpenState}
      selectionFollowsFocus
      disableDrag={props.canEdit ? isRootItem : true}
      disableDrop={props.disableDrop}
      disableEdit={!props.canEdit}
      onMove={props.canEdit ? props.onMove : undefined}
      onSelect={props.onSelect}
      searchTerm={props.filterToken}
      searchMatch={props.filterMatch}
      renderRow={RowView}
      renderCursor={DropCursor}
      renderDragPreview={DragPreview}
      className="outline-none"
      aria-label="Rubric tree"
    >
      {NodeView}
    </Tree>
  );
});
