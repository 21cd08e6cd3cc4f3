/**
 * The operations the editor's commands build (add, duplicate, delete, move), as pure functions of
 * the tree index: the hook `useEditorOperations` submits them and moves the selection.
 */
import { generateNKeysBetween } from "fractional-indexing";
import type { NewNode, RubricOperation, SimpleOperation } from "@/lib/rubric/operations";
import { positionsForInsert } from "@/lib/rubric/positions";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { uuid4 } from "./ids";

/** Operations the browser can apply itself; the others wait for the server and a refetch. */
export function isOptimistic(
  op: RubricOperation,
): op is Exclude<SimpleOperation, { kind: "restore" | "dismiss" | "undismiss" }> {
  if (op.kind === "create") return op.nodes[0]?.parentKey !== null; // the root of an empty rubric
  // A lint dismissal changes no row: the reload after it brings the dismissals.
  return op.kind !== "restore" && op.kind !== "batch" && op.kind !== "dismiss" && op.kind !== "undismiss";
}

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

function hasAncestorIn(index: TreeIndex, key: string, set: ReadonlySet<string>): boolean {
  let p = index.parentOf(key);
  while (p) {
    if (set.has(p.key)) return true;
    p = index.parentOf(p.key);
  }
  return false;
}

/** The top-most of `keys` in pre-order: a descendant goes with its ancestor. */
export function topMost(index: TreeIndex, keys: ReadonlySet<string>): string[] {
  return index.preorder.filter((r) => keys.has(r.key) && !hasAncestorIn(index, r.key, keys)).map((r) => r.key);
}

/**
 * Deleting `keys` (none of them the root): the subtrees to delete, how many nodes go, and where the
 * selection goes next (the next sibling, else the previous one, else the parent).
 */
export function deletionOf(
  index: TreeIndex,
  keys: ReadonlySet<string>,
): { top: string[]; count: number; next: string | null } {
  const top = topMost(index, keys);
  const count = top.reduce((n, k) => n + index.subtreeKeys(k).length, 0);
  const first = top[0];
  const parent = index.parentOf(first);
  const siblings = parent ? index.children(parent.key) : [];
  const i = siblings.findIndex((r) => r.key === first);
  const next =
    siblings.slice(i + 1).find((r) => !keys.has(r.key)) ??
    [...siblings.slice(0, i)].reverse().find((r) => !keys.has(r.key)) ??
    parent;
  return { top, count, next: next?.key ?? null };
}

type MoveOperation = Extract<RubricOperation, { kind: "move" }>;

/**
 * Moving the dragged nodes to `atIndex` under `parentId`: the operation, null when nothing moves,
 * or an error to show.
 */
export function moveOf(
  index: TreeIndex,
  dragIds: readonly string[],
  parentId: string,
  atIndex: number,
): MoveOperation | { error: string } | null {
  const keys = topMost(index, new Set(dragIds));
  if (keys.length === 0) return null;
  if (keys.some((k) => k === parentId || index.isAncestor(k, parentId)))
    return { error: "Cannot move a node under its own subtree" };
  const siblings = index.children(parentId);
  // Dropped where it already is: nothing to do.
  if (keys.length === 1 && index.parentOf(keys[0])?.key === parentId) {
    const at = siblings.findIndex((r) => r.key === keys[0]);
    if (at === atIndex || at + 1 === atIndex) return null;
  }
  const positions = positionsForInsert(index, parentId, atIndex, keys.length);
  return { kind: "move", moves: keys.map((key, i) => ({ key, parentKey: parentId, position: positions[i] })) };
}

/** Every key in the subtrees of `roots` (the roots included), read from parent links. */
export function keysUnder(rows: readonly NodeRow[], roots: readonly string[]): Set<string> {
  const children = new Map<string, string[]>();
  for (const r of rows) {
    if (r.parentKey === null) continue;
    const list = children.get(r.parentKey);
    if (list) list.push(r.key);
    else children.set(r.parentKey, [r.key]);
  }
  const removed = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (removed.has(key)) continue;
    removed.add(key);
    stack.push(...(children.get(key) ?? []));
  }
  return removed;
}
