/**
 * The operations the editor's commands build (add, duplicate, delete, move), as pure functions of
 * the tree index: the hook `useEditorOperations` submits them and moves the selection.
 */
import { generateNKeysBetween } from "fractional-indexing";
import type { NewNode, RubricOperation } from "@/lib/rubric/operations";
import { positionsForInsert } from "@/lib/rubric/positions";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import { uuid4 } from "./ids";
import { hasAncestorIn } from "./selection-summary";

/** An empty node at `position` under `parentKey` (null: the root). */
export function newNode(parentKey: string | null, position: string): NewNode {
  return {
    key: uuid4(),
    parentKey,
    position,
    nodeId: uuid4(),
    requirements: "",
    weight: 1,
    taskCategory: null,
    finegrainedTaskCategory: null,
  };
}

/** A new last child of `parentKey`. */
export function childNode(index: TreeIndex, parentKey: string): NewNode {
  const [position] = positionsForInsert(index, parentKey, index.children(parentKey).length, 1);
  return newNode(parentKey, position);
}

/** A new node right after `key` among its siblings. */
export function siblingNode(index: TreeIndex, key: string, parentKey: string): NewNode {
  const at = index.children(parentKey).findIndex((r) => r.key === key) + 1;
  const [position] = positionsForInsert(index, parentKey, at, 1);
  return newNode(parentKey, position);
}

/** A copy of the subtree at `key` (fresh keys and node ids), right after it; `nodes[0]` is the copy's root. */
export function copyOfSubtree(index: TreeIndex, key: string, parentKey: string): NewNode[] {
  const keys = index.subtreeKeys(key);
  const newKeys = new Map(keys.map((k) => [k, uuid4()]));
  const at = index.children(parentKey).findIndex((r) => r.key === key) + 1;
  const [rootPosition] = positionsForInsert(index, parentKey, at, 1);
  // Children get fresh, evenly spread positions in their current order.
  const childPositions = new Map<string, string>();
  for (const k of keys) {
    const kids = index.children(k);
    if (kids.length === 0) continue;
    const positions = generateNKeysBetween(null, null, kids.length);
    kids.forEach((kid, i) => childPositions.set(kid.key, positions[i]));
  }
  return keys.map((k) => {
    const r = index.byKey.get(k)!;
    return {
      key: newKeys.get(k)!,
      parentKey: k === key ? parentKey : newKeys.get(r.parentKey!)!,
      position: k === key ? rootPosition : childPositions.get(k)!,
      nodeId: uuid4(),
      requirements: r.requirements,
      weight: r.weight,
      taskCategory: r.taskCategory,
      finegrainedTaskCategory: r.finegrainedTaskCategory,
    };
  });
}

/** The top-most of `keys` in pre-order: a descendant goes with its ancestor. */
export function topMost(index: TreeIndex, keys: ReadonlySet<string>): string[] {
  return index.preorder.filter((r) => keys.has(r.key) && !hasAncestorIn(index, r.key, keys)).map((r) => r.key);
}

/**
 * Deleting `keys` (none of them the root): the subtrees to delete, how many nodes go, and where the
 * selection goes next (the next sibling, else the previous one, else the parent).
 */
export function deletionOf(index: TreeIndex, keys: ReadonlySet<string>): { top: string[]; count: number; next: string | null } {
  const top = topMost(index, keys);
  const count = top.reduce((n, k) => n + index.subtreeKeys(k).length, 0);
  const first = top[0];
  const parent = index.parentOf(first);
  const siblings = parent ? index.children(parent.key) : [];
  const i = siblings.findIndex((r) => r.key === first);
  const next =
    siblings.slice(i + 1).find((r) => !keys.has(r.key)) ?? [...siblings.slice(0, i)].reverse().find((r) => !keys.has(r.key)) ?? parent;
  return { top, count, next: next?.key ?? null };
}

type MoveOperation = Extract<RubricOperation, { kind: "move" }>;

/**
 * Moving the dragged nodes to `atIndex` under `parentId`: the operation, null when nothing moves,
 * or an error to show.
 */
export function moveOf(index: TreeIndex, dragIds: readonly string[], parentId: string, atIndex: number): MoveOperation | { error: string } | null {
  const keys = topMost(index, new Set(dragIds));
  if (keys.length === 0) return null;
  if (keys.some((k) => k === parentId || index.isAncestor(k, parentId))) return { error: "Cannot move a node under its own subtree" };
  const siblings = index.children(parentId);
  // Dropped where it already is: nothing to do.
  if (keys.length === 1 && index.parentOf(keys[0])?.key === parentId) {
    const at = siblings.findIndex((r) => r.key === keys[0]);
    if (at === atIndex || at + 1 === atIndex) return null;
  }
  const positions = positionsForInsert(index, parentId, atIndex, keys.length);
  return { kind: "move", moves: keys.map((key, i) => ({ key, parentKey: parentId, position: positions[i] })) };
}
