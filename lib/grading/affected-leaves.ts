/**
 * What a rubric change does to a grading: each leaf of the current rubric classified against the
 * rubric the grading was made against (both as pre-order rows of the graded view), the verdicts
 * that carry over, and the new root score (exact when only weights moved, else the range the
 * leaves still to grade allow). Pure; the server's consequences list, the re-grade and the tests
 * read it.
 *
 * A leaf's verdict answers its own requirements and category, so it stands while they do: a
 * change of its weight, an ancestor's weight, its siblings or its place only moves its share of the
 * root, which is recomputed from the verdicts at once. A changed requirement or category, a leaf
 * that was not one before (its children deleted) and a new leaf need a verdict. The fine-grained
 * category is not asked: the judge never reads it (and PaperBench's graded trees leave it out).
 */
import { buildPinnedGradedTree, type StoredOverride, type StoredVerdict } from "@/lib/grading/pinned-tree";
import { effectiveShares } from "@/lib/rubric/shares";
import { buildTreeIndex, type TreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";

export type LeafChange = "unchanged" | "reweighted" | "changed" | "added";

export interface LeafImpact {
  /** The leaf's key in the current rubric. */
  key: string;
  nodeId: string;
  change: LeafChange;
  /** The node it was in the graded rubric (null: added). */
  oldKey: string | null;
  /** Its share of the root score then (null: added, or it was not a leaf) and now. */
  oldShare: number | null;
  newShare: number;
  /** For `changed`: what changed ("requirements", "task category", …). */
  reasons: string[];
}

export interface RemovedLeaf {
  key: string;
  nodeId: string;
  share: number;
}

export interface RubricImpact {
  /** Every leaf of the current rubric, in pre-order. */
  leaves: LeafImpact[];
  /** Leaves of the graded rubric that are no leaf of the current one: their verdicts are dropped. */
  removed: RemovedLeaf[];
  counts: Record<LeafChange | "removed", number>;
  /** Current keys of the leaves that need a verdict (changed and added), in pre-order. */
  toGrade: string[];
}

/**
 * Which graded node each current node is: by key (versions of the live rubric share its keys);
 * nodes whose key the graded rubric lacks (a version made from an imported graded tree has keys of
 * its own) by their path of PaperBench ids from the root, the n-th sibling with the same id.
 */
export function matchNodes(oldIndex: TreeIndex, newIndex: TreeIndex): Map<string, string> {
  const match = new Map<string, string>();
  const taken = new Set<string>();
  for (const row of newIndex.preorder) {
    if (oldIndex.byKey.has(row.key)) {
      match.set(row.key, row.key);
      taken.add(row.key);
    }
  }
  if (match.size === newIndex.preorder.length) return match;
  const oldByPath = new Map<string, string>();
  for (const [path, key] of idPaths(oldIndex)) if (!taken.has(key)) oldByPath.set(path, key);
  for (const [path, key] of idPaths(newIndex)) {
    if (match.has(key)) continue;
    const oldKey = oldByPath.get(path);
    if (oldKey !== undefined) {
      match.set(key, oldKey);
      oldByPath.delete(path);
    }
  }
  return match;
}

/** Each node's path of ids from the root ("id#n" per level: the n-th sibling with that id). */
function idPaths(index: TreeIndex): Map<string, string> {
  const pathOf = new Map<string, string>();
  const out = new Map<string, string>();
  for (const row of index.preorder) {
    const parentPath = row.parentKey === null ? "" : pathOf.get(row.parentKey)!;
    let nth = 0;
    if (row.parentKey !== null) {
      for (const sibling of index.children(row.parentKey)) {
        if (sibling.key === row.key) break;
        if (sibling.nodeId === row.nodeId) nth++;
      }
    }
    const path = `${parentPath}/${JSON.stringify(row.nodeId)}#${nth}`;
    pathOf.set(row.key, path);
    out.set(path, row.key);
  }
  return out;
}

/** Classifies the current rubric's leaves against the graded one's (`gradedRows`). */
export function classifyLeaves(gradedRows: readonly NodeRow[], currentRows: readonly NodeRow[]): RubricImpact {
  const oldIndex = buildTreeIndex(gradedRows);
  const newIndex = buildTreeIndex(currentRows);
  const oldShares = effectiveShares(oldIndex);
  const newShares = effectiveShares(newIndex);
  const match = matchNodes(oldIndex, newIndex);
  const leaves: LeafImpact[] = [];
  const keptOldLeaves = new Set<string>();
  for (const row of newIndex.preorder) {
    if (!newIndex.isLeaf(row.key)) continue;
    const newShare = newShares.get(row.key) ?? 0;
    const oldKey = match.get(row.key) ?? null;
    const old = oldKey === null ? null : oldIndex.byKey.get(oldKey)!;
    if (old === null) {
      leaves.push({
        key: row.key,
        nodeId: row.nodeId,
        change: "added",
        oldKey: null,
        oldShare: null,
        newShare,
        reasons: [],
      });
      continue;
    }
    const wasLeaf = oldIndex.isLeaf(old.key);
    const reasons: string[] = [];
    if (!wasLeaf) reasons.push("was not a leaf");
    if (old.requirements !== row.requirements) reasons.push("requirements");
    if (old.taskCategory !== row.taskCategory) reasons.push("task category");
    if (wasLeaf) keptOldLeaves.add(old.key);
    const oldShare = wasLeaf ? (oldShares.get(old.key) ?? 0) : null;
    const change: LeafChange = reasons.length > 0 ? "changed" : oldShare === newShare ? "unchanged" : "reweighted";
    leaves.push({ key: row.key, nodeId: row.nodeId, change, oldKey: old.key, oldShare, newShare, reasons });
  }
  const removed: RemovedLeaf[] = [];
  for (const row of oldIndex.preorder) {
    if (oldIndex.isLeaf(row.key) && !keptOldLeaves.has(row.key))
      removed.push({ key: row.key, nodeId: row.nodeId, share: oldShares.get(row.key) ?? 0 });
  }
  const counts = { unchanged: 0, reweighted: 0, changed: 0, added: 0, removed: removed.length };
  for (const leaf of leaves) counts[leaf.change]++;
  const toGrade = leaves.filter((l) => l.change === "changed" || l.change === "added").map((l) => l.key);
  return { leaves, removed, counts, toGrade };
}

/**
 * The verdicts and overrides that stand under the current rubric (unchanged and reweighted leaves),
 * re-keyed to the current keys; the rest are dropped.
 */
export function carryOver(
  impact: RubricImpact,
  verdicts: Iterable<StoredVerdict>,
  overrides: Iterable<StoredOverride> = [],
): { verdicts: StoredVerdict[]; overrides: StoredOverride[] } {
  const newKeyOf = new Map<string, string>();
  for (const leaf of impact.leaves)
    if (leaf.oldKey !== null && (leaf.change === "unchanged" || leaf.change === "reweighted"))
      newKeyOf.set(leaf.oldKey, leaf.key);
  const keptVerdicts: StoredVerdict[] = [];
  for (const v of verdicts) {
    const key = newKeyOf.get(v.nodeKey);
    if (key !== undefined) keptVerdicts.push({ ...v, nodeKey: key });
  }
  const keptOverrides: StoredOverride[] = [];
  for (const o of overrides) {
    const key = newKeyOf.get(o.nodeKey);
    if (key !== undefined) keptOverrides.push({ ...o, nodeKey: key });
  }
  return { verdicts: keptVerdicts, overrides: keptOverrides };
}

export interface ProjectedScore {
  /** The new effective root score when no leaf needs a verdict, else null. */
  score: number | null;
  /** The root score with every leaf still to grade at 0, and at 1 (equal to `score` when known). */
  min: number;
  max: number;
}

/**
 * The root score under the current rubric (`currentRows`, pre-order of the graded view) from the
 * verdicts and overrides that carry over, by the one aggregation (`buildPinnedGradedTree`): exact
 * when nothing is left to grade, else the range between all of it failing and all of it passing.
 */
export function projectScore(
  impact: RubricImpact,
  currentRows: readonly NodeRow[],
  verdicts: Iterable<StoredVerdict>,
  overrides: Iterable<StoredOverride> = [],
): ProjectedScore {
  const kept = carryOver(impact, verdicts, overrides);
  const low = buildPinnedGradedTree(currentRows, kept.verdicts, kept.overrides).scores;
  if (impact.toGrade.length === 0) return { score: low.rootScore, min: low.rootScore, max: low.rootScore };
  const high = buildPinnedGradedTree(currentRows, kept.verdicts, [
    ...kept.overrides,
    ...impact.toGrade.map((nodeKey) => ({ nodeKey, newScore: 1 })),
  ]).scores;
  return { score: null, min: low.rootScore, max: high.rootScore };
}
