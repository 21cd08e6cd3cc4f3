/**
 * What changed between two versions of a rubric (two row sets): nodes added, removed, moved and
 * edited, word-level requirement diffs (diff-match-patch), and how the leaves' shares of the final
 * score moved. Pure; no framework, no Node built-ins.
 */
import DiffMatchPatch from "diff-match-patch";
import { buildTreeIndex, preorderLayout, type TreeIndex } from "./tree-index";
import type { NodeRow } from "./tree-rows";

export interface TextDiffPart {
  op: "equal" | "insert" | "delete";
  text: string;
}

export type DiffField = "requirements" | "weight" | "taskCategory" | "finegrainedTaskCategory" | "nodeId";

export interface RubricDiff {
  /** Rows only after, in the after tree's pre-order. */
  added: NodeRow[];
  /** Rows only before, in the before tree's pre-order. */
  removed: NodeRow[];
  /**
   * Matched nodes with a new parent, or a new place among the siblings they kept (the fewest such
   * nodes that explain the new order). `key` is the after row's key. In after pre-order.
   */
  moved: { key: string; before: NodeRow; after: NodeRow; parentChanged: boolean }[];
  /** Matched nodes whose fields differ. `key` is the after row's key. In after pre-order. */
  changed: {
    key: string;
    before: NodeRow;
    after: NodeRow;
    fields: DiffField[];
    requirementsDiff?: TextDiffPart[];
  }[];
  /**
   * Leaves (on either side) whose effective share of the final score changed by more than 1e-12,
   * with 0 on the side where the node is missing; by |after − before| descending. `key` is the
   * after key (the before key for a removed node), `requirements` the latest text.
   */
  shareChanges: { key: string; requirements: string; before: number; after: number }[];
}

/** Share changes at or below this are rounding noise. */
export const SHARE_EPSILON = 1e-12;

const FIELDS: readonly DiffField[] = ["requirements", "weight", "taskCategory", "finegrainedTaskCategory", "nodeId"];

let dmp: DiffMatchPatch | null = null;

const isSpace = (code: number) =>
  code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029;

// Words (letters with marks, digits, inner apostrophes and hyphens), numbers, runs of white space,
// and any other single character.
const TOKEN = /\p{L}[\p{L}\p{M}\p{N}_'’-]*|\p{N}+(?:[.,]\p{N}+)*|\s+|[^]/gu;

/**
 * Word-level diff of two texts. The common start and end are cut off at white space (so that
 * they hold whole words); in the middle, words, runs of white space and single punctuation marks
 * are the units, each mapped to one character as diff-match-patch's line mode does, diffed with
 * `diff_main` and cleaned up with `diff_cleanupSemantic` at that level (so edits never split a
 * word). Past 65,536 distinct units it falls back to a character diff.
 */
export function diffText(before: string, after: string): TextDiffPart[] {
  if (before === after) return before === "" ? [] : [{ op: "equal", text: before }];
  // Common prefix, cut just after a white space character (or at 0).
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  while (start > 0 && !isSpace(before.charCodeAt(start - 1))) start--;
  // Common suffix (not overlapping the prefix), cut just before a white space character (or at the end).
  let suffix = 0;
  while (
    suffix < max - start &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  while (suffix > 0 && !isSpace(before.charCodeAt(before.length - suffix))) suffix--;

  const parts: TextDiffPart[] = [];
  const push = (op: TextDiffPart["op"], text: string) => {
    if (text === "") return;
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += text;
    else parts.push({ op, text });
  };
  push("equal", before.slice(0, start));
  for (const [op, text] of diffMiddle(
    before.slice(start, before.length - suffix),
    after.slice(start, after.length - suffix),
  )) {
    push(op === 0 ? "equal" : op > 0 ? "insert" : "delete", text);
  }
  push("equal", before.slice(before.length - suffix));
  return parts;
}

function diffMiddle(before: string, after: string): DiffMatchPatch.Diff[] {
  dmp ??= new DiffMatchPatch();
  dmp.Diff_Timeout = 1;
  if (before === "" || after === "")
    return [
      [-1, before],
      [1, after],
    ];
  const tokens: string[] = [];
  const codes = new Map<string, number>();
  const encode = (text: string): string | null => {
    let out = "";
    for (const token of text.match(TOKEN) ?? []) {
      let code = codes.get(token);
      if (code === undefined) {
        code = tokens.length;
        if (code > 0xffff) return null;
        tokens.push(token);
        codes.set(token, code);
      }
      out += String.fromCharCode(code);
    }
    return out;
  };
  const a = encode(before);
  const b = a === null ? null : encode(after);
  if (a === null || b === null) {
    const diffs = dmp.diff_main(before, after);
    dmp.diff_cleanupSemantic(diffs);
    return diffs;
  }
  const diffs = dmp.diff_main(a, b, false);
  dmp.diff_cleanupSemantic(diffs);
  return diffs.map(([op, chars]) => {
    let text = "";
    for (let i = 0; i < chars.length; i++) text += tokens[chars.charCodeAt(i)];
    return [op, text] as DiffMatchPatch.Diff;
  });
}

/** Indexes (into `seq`) of one longest strictly increasing subsequence. O(n log n). */
function longestIncreasing(seq: readonly number[]): Set<number> {
  const tails: number[] = []; // index into seq of the smallest tail of each length
  const prev: number[] = new Array(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < seq[i]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const keep = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) keep.add(i);
  return keep;
}

/**
 * Effective shares by pre-order position (as `effectiveShares`, same arithmetic in the same order:
 * siblings are summed in sibling order, which is pre-order).
 */
function sharesByPosition(pre: readonly NodeRow[], parent: readonly number[]): Float64Array {
  const n = pre.length;
  const sums = new Float64Array(n);
  for (let i = 1; i < n; i++) sums[parent[i]] += pre[i].weight;
  const shares = new Float64Array(n);
  if (n > 0) shares[0] = 1;
  for (let i = 1; i < n; i++) {
    const p = parent[i];
    shares[i] = sums[p] === 0 ? 0 : (shares[p] * pre[i].weight) / sums[p];
  }
  return shares;
}

/**
 * Diff of two row sets (each taken as the tree reachable from its root). Rows are matched by
 * `key`; rows left unmatched on both sides are then matched by PaperBench `nodeId` where that id
 * is carried by exactly one unmatched row on each side (a re-import: new keys, same ids); last,
 * an id used several times is matched among the unmatched children of two matched parents, in
 * sibling order, when both sides have as many children with that id.
 */
export function diffRubrics(before: readonly NodeRow[], after: readonly NodeRow[]): RubricDiff {
  const bIndex = buildTreeIndex(before);
  const aIndex = buildTreeIndex(after);
  const bPre = bIndex.preorder;
  const aPre = aIndex.preorder;
  const bLayout = preorderLayout(bIndex);
  const aLayout = preorderLayout(aIndex);
  const nb = bPre.length;
  const na = aPre.length;

  // Matches by pre-order position: before i <-> after bToA[i] (-1: none), and back.
  const bToA = new Int32Array(nb).fill(-1);
  const aToB = new Int32Array(na).fill(-1);
  let matched = 0;
  const match = (i: number, j: number) => {
    bToA[i] = j;
    aToB[j] = i;
    matched++;
  };
  for (let i = 0; i < nb; i++) {
    const j = aLayout.position.get(bPre[i].key);
    if (j !== undefined) match(i, j);
  }

  // Unmatched positions grouped by nodeId, in the order given.
  const groupById = (pre: readonly NodeRow[], toOther: Int32Array, positions: readonly number[]) => {
    const byId = new Map<string, number[]>();
    for (const i of positions) {
      if (toOther[i] >= 0) continue;
      const group = byId.get(pre[i].nodeId);
      if (group) group.push(i);
      else byId.set(pre[i].nodeId, [i]);
    }
    return byId;
  };
  if (matched < nb && matched < na) {
    // nodeId -> the one unmatched position carrying it, or -1 when several do.
    const uniqueIds = (pre: readonly NodeRow[], toOther: Int32Array) => {
      const byId = new Map<string, number>();
      for (let i = 0; i < pre.length; i++) {
        if (toOther[i] >= 0) continue;
        const id = pre[i].nodeId;
        byId.set(id, byId.has(id) ? -1 : i);
      }
      return byId;
    };
    const aIds = uniqueIds(aPre, aToB);
    for (const [id, i] of uniqueIds(bPre, bToA)) {
      const j = aIds.get(id);
      if (i >= 0 && j !== undefined && j >= 0) match(i, j);
    }
  }
  // Ids used several times (real rubrics have a few, some among siblings): match them among the
  // children of two matched parents, top-down, pairing the unmatched children with that id in
  // sibling order when both sides have as many.
  if (matched < nb && matched < na) {
    const childPositions = (index: TreeIndex, position: ReadonlyMap<string, number>, key: string) =>
      index.children(key).map((c) => position.get(c.key)!);
    for (let j = 0; j < na; j++) {
      const i = aToB[j];
      if (i < 0 || aLayout.end[j] === j + 1) continue;
      const aKids = childPositions(aIndex, aLayout.position, aPre[j].key);
      if (aKids.every((k) => aToB[k] >= 0)) continue;
      const bGroups = groupById(bPre, bToA, childPositions(bIndex, bLayout.position, bPre[i].key));
      for (const [id, aGroup] of groupById(aPre, aToB, aKids)) {
        const bGroup = bGroups.get(id);
        if (bGroup && bGroup.length === aGroup.length) aGroup.forEach((k, g) => match(bGroup[g], k));
      }
    }
  }

  const added: NodeRow[] = [];
  for (let j = 0; j < na; j++) if (aToB[j] < 0) added.push(aPre[j]);
  const removed: NodeRow[] = [];
  for (let i = 0; i < nb; i++) if (bToA[i] < 0) removed.push(bPre[i]);

  // Moves: a new parent, or out of order among the siblings that stayed with the same parent.
  const outOfOrder = new Uint8Array(na); // by after position
  const stayed: number[] = [];
  for (let j = 0; j < na; j++) {
    const i = aToB[j];
    if (i < 0 || bLayout.end[i] === i + 1) continue;
    const bKids = bIndex.children(bPre[i].key);
    if (bKids.length < 2) continue;
    // The before children that stayed under this parent, in before order, as after positions.
    stayed.length = 0;
    let sorted = true;
    for (const bChild of bKids) {
      const k = bToA[bLayout.position.get(bChild.key)!];
      if (k < 0 || aLayout.parent[k] !== j) continue;
      // Siblings' pre-order positions follow their sibling order.
      if (stayed.length > 0 && stayed[stayed.length - 1] > k) sorted = false;
      stayed.push(k);
    }
    if (sorted) continue; // the usual case: same relative order
    const keep = longestIncreasing(stayed);
    stayed.forEach((k, s) => {
      if (!keep.has(s)) outOfOrder[k] = 1;
    });
  }

  const bShares = sharesByPosition(bPre, bLayout.parent);
  const aShares = sharesByPosition(aPre, aLayout.parent);

  const moved: RubricDiff["moved"] = [];
  const changed: RubricDiff["changed"] = [];
  const shareChanges: (RubricDiff["shareChanges"][number] & { delta: number })[] = [];
  const pushShare = (key: string, requirements: string, before: number, after: number) => {
    const delta = Math.abs(after - before);
    if (delta > SHARE_EPSILON) shareChanges.push({ key, requirements, before, after, delta });
  };
  for (let j = 0; j < na; j++) {
    const a = aPre[j];
    const i = aToB[j];
    const aLeaf = aLayout.end[j] === j + 1;
    if (i < 0) {
      if (aLeaf) pushShare(a.key, a.requirements, 0, aShares[j]);
      continue;
    }
    const b = bPre[i];
    if (aLeaf || bLayout.end[i] === i + 1) pushShare(a.key, a.requirements, bShares[i], aShares[j]);
    // The before parent's counterpart (-1 when it was removed) against the after parent.
    const bParent = bLayout.parent[i];
    const aParent = aLayout.parent[j];
    const parentChanged = bParent < 0 ? aParent >= 0 : bToA[bParent] !== aParent;
    if (parentChanged || outOfOrder[j] === 1) moved.push({ key: a.key, before: b, after: a, parentChanged });
    const same =
      a.requirements === b.requirements &&
      a.weight === b.weight &&
      a.taskCategory === b.taskCategory &&
      a.finegrainedTaskCategory === b.finegrainedTaskCategory &&
      a.nodeId === b.nodeId;
    if (same) continue;
    const fields = FIELDS.filter((f) => a[f] !== b[f]);
    const entry: RubricDiff["changed"][number] = { key: a.key, before: b, after: a, fields };
    if (a.requirements !== b.requirements) entry.requirementsDiff = diffText(b.requirements, a.requirements);
    changed.push(entry);
  }
  for (let i = 0; i < nb; i++) {
    if (bToA[i] < 0 && bLayout.end[i] === i + 1) pushShare(bPre[i].key, bPre[i].requirements, bShares[i], 0);
  }
  // Stable sort: equal changes keep after pre-order, then removed nodes in before pre-order.
  shareChanges.sort((x, y) => y.delta - x.delta);

  return {
    added,
    removed,
    moved,
    changed,
    shareChanges: shareChanges.map(({ key, requirements, before, after }) => ({ key, requirements, before, after })),
  };
}
