"use client";

import { useEffect, useState, type RefObject } from "react";
import type { TreeApi } from "react-arborist";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import { shortText } from "@/lib/short-text";
import type { TreeItem } from "./derive";

/**
 * Where a drag would drop, in words: "inside" a row (the row is highlighted), "between" two rows
 * (a line at the drop depth), or nowhere. The same line could mean either (react-arborist reads the
 * pointer's x), so the footer says which while the drag lasts.
 */
export interface DropNote {
  kind: "inside" | "between" | "none";
  text: string;
}

function quote(index: TreeIndex, key: string | null | undefined): string {
  return `'${shortText((key ? index.byKey.get(key)?.requirements : undefined) ?? "", 40) || "(empty)"}'`;
}

/** The drop the tree's state describes, or null when nothing is being dragged. */
export function dropNoteOf(tree: TreeApi<TreeItem>, index: TreeIndex): DropNote | null {
  const { dnd, nodes } = tree.state;
  if (dnd.dragIds.length === 0) return null;
  const moving = dnd.dragIds.length === 1 ? quote(index, dnd.dragIds[0]) : `${dnd.dragIds.length} nodes`;
  const parentKey = nodes.drag.destinationParentId;
  // Set only where the drop is allowed (react-arborist clears it elsewhere).
  if (parentKey === null || dnd.cursor.type === "none") return { kind: "none", text: `Can't drop ${moving} here` };
  if (dnd.cursor.type === "highlight")
    return { kind: "inside", text: `Move ${moving} inside ${quote(index, parentKey)}` };
  const at = nodes.drag.destinationIndex ?? 0;
  const siblings = tree.get(parentKey)?.children?.map((n) => n.id) ?? [];
  const dragged = new Set(dnd.dragIds);
  if (dragged.size === 1 && (siblings[at - 1] === dnd.dragIds[0] || siblings[at] === dnd.dragIds[0])) {
    return { kind: "between", text: `${moving} stays where it is` };
  }
  const before = siblings
    .slice(0, at)
    .reverse()
    .find((k) => !dragged.has(k));
  const parent = quote(index, parentKey);
  return {
    kind: "between",
    text: before
      ? `Move ${moving} after ${quote(index, before)} (under ${parent})`
      : `Move ${moving} first under ${parent}`,
  };
}

/** Follows the tree's drag state; `mounted` says when the tree (and so `treeRef`) exists. */
export function useDropNote(
  treeRef: RefObject<TreeApi<TreeItem> | null>,
  index: TreeIndex,
  mounted: boolean,
): DropNote | null {
  const [note, setNote] = useState<DropNote | null>(null);
  useEffect(() => {
    const tree = treeRef.current;
    if (!tree || !mounted) return;
    const update = () =>
      setNote((prev) => {
        const next = dropNoteOf(tree, index);
        return prev?.kind === next?.kind && prev?.text === next?.text ? prev : next;
      });
    update();
    return tree.store.subscribe(update);
  }, [treeRef, index, mounted]);
  return note;
}
