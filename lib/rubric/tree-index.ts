/**
 * An index over the rows of one rubric: children in sibling order, parents, depths, pre-order and
 * subtree ranges, built once in O(n log n) and then answered in O(1) (subtrees in their size).
 * Pure; no framework, no Node built-ins (browser editor and server).
 */
import { compareSiblings, type NodeRow } from "./tree-rows";

export interface TreeIndex {
  /** The row with `parentKey === null`; `null` for no rows. */
  root: NodeRow | null;
  /** The rows reachable from the root (rows under a missing parent are left out). */
  byKey: Map<string, NodeRow>;
  /** Children in sibling order (`compareSiblings`); empty for a leaf or an unknown key. */
  children(key: string): readonly NodeRow[];
  /** The parent row; `null` for the root or an unknown key. */
  parentOf(key: string): NodeRow | null;
  /** Edges from the root: the root is 0; -1 for an unknown key. */
  depthOf(key: string): number;
  /** `true` for a known node without children. */
  isLeaf(key: string): boolean;
  /** Every reachable row in depth-first pre-order (the order of `rubric.json`). */
  preorder: readonly NodeRow[];
  /** The keys of the subtree of `key` in pre-order, `key` first; empty for an unknown key. */
  subtreeKeys(key: string): string[];
  /** `true` when `ancestorKey` is a proper ancestor of `key` (a node is not its own ancestor). */
  isAncestor(ancestorKey: string, key: string): boolean;
}

/** Pre-order positions and subtree ends of each index made here (see `subtreeRange`). */
const internals = new WeakMap<TreeIndex, PreorderLayout>();

const NO_ROWS: readonly NodeRow[] = Object.freeze([]);

/**
 * Builds the index. The root is the one row whose `parentKey` is `null`; rows whose parent is
 * missing (or that hang in a cycle away from the root) are ignored with their subtrees, as in
 * `rowsToTree`. Throws when several rows have no parent (as `rowsToTree` does). A key repeated in
 * `rows` (never the case for live rows) keeps the row met first in pre-order.
 */
export function buildTreeIndex(rows: readonly NodeRow[]): TreeIndex {
  const childrenOf = new Map<string, NodeRow[]>();
  let root: NodeRow | null = null;
  let roots = 0;
  for (const row of rows) {
    if (row.parentKey === null) {
      if (root !== null && root.key === row.key) continue; // the root's key repeated
      roots++;
      root ??= row;
      continue;
    }
    const siblings = childrenOf.get(row.parentKey);
    if (siblings) siblings.push(row);
    else childrenOf.set(row.parentKey, [row]);
  }
  if (roots > 1) throw new Error(`A rubric has ${roots} root nodes; expected one`);

  const byKey = new Map<string, NodeRow>();
  const preorder: NodeRow[] = [];
  const order = new Map<string, number>(); // key -> index in pre-order
  const depth: number[] = [];
  const parentIndex: number[] = [];
  const end: number[] = []; // exclusive end of the subtree's range in pre-order
  const kidsAt: (readonly NodeRow[])[] = []; // children by pre-order index

  let repeated = false;
  if (root) {
    // Iterative DFS (deep trees cannot overflow the stack), parallel stacks of row and parent.
    const stackRows: NodeRow[] = [root];
    const stackParents: number[] = [-1];
    while (stackRows.length > 0) {
      const row = stackRows.pop()!;
      const parent = stackParents.pop()!;
      const i = preorder.length;
      byKey.set(row.key, row);
      if (byKey.size === i) {
        // No new entry: a key repeated in `rows`. The row met first in pre-order wins.
        byKey.set(row.key, preorder[order.get(row.key)!]);
        repeated = true;
        continue;
      }
      order.set(row.key, i);
      preorder.push(row);
      depth.push(parent < 0 ? 0 : depth[parent] + 1);
      parentIndex.push(parent);
      end.push(i + 1);
      const kids = childrenOf.get(row.key);
      if (kids) {
        if (kids.length > 1) kids.sort(compareSiblings);
        kidsAt.push(kids);
        for (let k = kids.length - 1; k >= 0; k--) {
          stackRows.push(kids[k]);
          stackParents.push(i);
        }
      } else kidsAt.push(NO_ROWS);
    }
    // Subtree ends: in pre-order a node's range ends where its last descendant's does.
    for (let i = preorder.length - 1; i > 0; i--) {
      const p = parentIndex[i];
      if (end[i] > end[p]) end[p] = end[i];
    }
    // Children repeated in `rows` under one parent: keep one row per key in the lists.
    if (repeated)
      for (let i = 0; i < kidsAt.length; i++) {
        const kids = kidsAt[i];
        if (kids.some((kid) => byKey.get(kid.key) !== kid)) {
          kidsAt[i] = kids.filter((kid, j) => byKey.get(kid.key) === kid && kids.indexOf(kid) === j);
        }
      }
  }

  // An index over repeated keys is not patched (`withReplacedRows`): which row wins is the build's to say.
  return indexOf({ root, byKey, preorder, order, depth, parentIndex, end, kidsAt, repeated });
}

/** What an index answers from: the rows, and the pre-order layout they hang in. */
interface IndexParts {
  root: NodeRow | null;
  byKey: Map<string, NodeRow>;
  preorder: NodeRow[];
  order: Map<string, number>;
  depth: number[];
  parentIndex: number[];
  end: number[];
  kidsAt: (readonly NodeRow[])[];
  repeated: boolean;
}

const parts = new WeakMap<TreeIndex, IndexParts>();

function indexOf(p: IndexParts): TreeIndex {
  const { root, byKey, preorder, order, depth, parentIndex, end, kidsAt } = p;
  const index: TreeIndex = {
    root,
    byKey,
    preorder,
    children: (key) => {
      const i = order.get(key);
      return i === undefined ? NO_ROWS : kidsAt[i];
    },
    parentOf: (key) => {
      const i = order.get(key);
      return i === undefined || parentIndex[i] < 0 ? null : preorder[parentIndex[i]];
    },
    depthOf: (key) => {
      const i = order.get(key);
      return i === undefined ? -1 : depth[i];
    },
    isLeaf: (key) => {
      const i = order.get(key);
      return i !== undefined && end[i] === i + 1;
    },
    subtreeKeys: (key) => {
      const i = order.get(key);
      if (i === undefined) return [];
      const keys: string[] = new Array(end[i] - i);
      for (let j = i; j < end[i]; j++) keys[j - i] = preorder[j].key;
      return keys;
    },
    isAncestor: (ancestorKey, key) => {
      const a = order.get(ancestorKey);
      const k = order.get(key);
      return a !== undefined && k !== undefined && a < k && k < end[a];
    },
  };
  internals.set(index, { position: order, parent: parentIndex, end });
  parts.set(index, p);
  return index;
}

/**
 * The index of the same tree with some rows replaced by new versions of themselves: same keys,
 * same parents, same positions, other fields (an edit of a weight or a text). The layout is shared
 * with `index` and only the rows are swapped, so an edit in the editor costs a copy of the key map
 * instead of a sort and a walk of every node. Null when `index` was not built here or a row is not
 * in it (the caller builds the index anew).
 */
export function withReplacedRows(index: TreeIndex, rows: readonly NodeRow[]): TreeIndex | null {
  const p = parts.get(index);
  if (!p || p.repeated) return null;
  const preorder = p.preorder.slice();
  const byKey = new Map(p.byKey);
  const kidsAt = p.kidsAt.slice();
  const copiedKids = new Set<number>();
  let root = p.root;
  for (const row of rows) {
    const i = p.order.get(row.key);
    const old = i === undefined ? undefined : preorder[i];
    if (i === undefined || !old || old.parentKey !== row.parentKey || old.position !== row.position) return null;
    preorder[i] = row;
    byKey.set(row.key, row);
    const parent = p.parentIndex[i];
    if (parent < 0) {
      root = row;
      continue;
    }
    if (!copiedKids.has(parent)) {
      kidsAt[parent] = kidsAt[parent].slice();
      copiedKids.add(parent);
    }
    const kids = kidsAt[parent] as NodeRow[];
    kids[kids.findIndex((kid) => kid.key === row.key)] = row;
  }
  return indexOf({ ...p, root, byKey, preorder, kidsAt });
}

/**
 * The index's pre-order as numbers, for loops over many nodes without a map lookup per question:
 * `position` of each key in `preorder`, and per position the `parent` position (-1 for the root)
 * and the `end` of the subtree (exclusive; a leaf at i has end i + 1).
 */
export interface PreorderLayout {
  position: ReadonlyMap<string, number>;
  parent: readonly number[];
  end: readonly number[];
}

/** The pre-order layout of an index (kept from the build; derived for another implementation). */
export function preorderLayout(index: TreeIndex): PreorderLayout {
  const internal = internals.get(index);
  if (internal) return internal;
  const position = new Map<string, number>();
  index.preorder.forEach((row, i) => position.set(row.key, i));
  const parent = index.preorder.map((row) => {
    const p = index.parentOf(row.key);
    return p ? position.get(p.key)! : -1;
  });
  const end = index.preorder.map((row, i) => i + index.subtreeKeys(row.key).length);
  const layout = { position, parent, end };
  internals.set(index, layout);
  return layout;
}

/**
 * Pre-order range `[start, end)` of the subtree of `key` in `index.preorder` (`[0, 0]` when
 * unknown), so that other modules can walk a subtree without allocating its key list.
 */
export function subtreeRange(index: TreeIndex, key: string): [number, number] {
  const { position, end } = preorderLayout(index);
  const i = position.get(key);
  return i === undefined ? [0, 0] : [i, end[i]];
}
