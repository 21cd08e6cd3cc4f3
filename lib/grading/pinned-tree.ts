/**
 * A stored grading as a graded tree: the pinned rubric version's rows (in the view that was
 * graded: the full rubric or its Code-Dev variant) with a verdict on each leaf and the latest
 * override applied. Also the check an import makes: is a graded tree the same rubric as a set of
 * rows (structure, ids, texts, weights, categories)? Pure; no framework, no Node built-ins: the
 * review page builds the same tree in the browser.
 */
import { GradingScores } from "@/lib/grading/recompute";
import { AGGREGATED_EXPLANATION, UNGRADED_EXPLANATION, type GradedNode, type JsonValue } from "@/lib/grading/types";
import type { Variant } from "@/lib/grading/variant";
import { CODE_DEV_CATEGORY, toCodeDevRows } from "@/lib/rubric/code-dev";
import { buildTreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { preorder } from "@/lib/rubric/walk";

/** The verdict on a leaf as stored (`grading_verdicts`). */
export interface StoredVerdict {
  nodeKey: string;
  score: number;
  valid: boolean;
  explanation: string;
  judgeMetadata: JsonValue;
  /** How the imported file wrote `valid_score` (a number in PaperBench's `pinn` grading). */
  fileDetail?: { validScoreNumber?: number } | null;
}

/** An override as stored (`grading_overrides`), oldest first when several. */
export interface StoredOverride {
  nodeKey: string;
  newScore: number;
}

/** The rows of the view of a version that a grading graded, in pre-order. */
export function viewRows(rows: readonly NodeRow[], view: Variant): readonly NodeRow[] {
  if (view !== "code-dev") return buildTreeIndex(rows).preorder;
  const kept = toCodeDevRows(rows);
  if (kept.length > 0 || rows.length === 0) return buildTreeIndex(kept).preorder;
  // No Code Development leaf: PaperBench's run_judge grades the root alone, as one Code
  // Development leaf (`code_only() or root.set_task_category(...).set_sub_tasks([])`), so the
  // view a Code-Dev grading stores its verdict on is that root.
  const root = rows.find((r) => r.parentKey === null);
  return root ? [{ ...root, taskCategory: CODE_DEV_CATEGORY }] : [];
}

/**
 * Whether `tree` is the rubric of `rows` (pre-order rows of one view): same shape, and per node
 * the same id, requirements, weight and task category; the fine-grained category is compared
 * only where the graded file had one (PaperBench's graded trees leave it out).
 */
export function isSameRubric(tree: GradedNode, rows: readonly NodeRow[]): boolean {
  const nodes = preorder(tree);
  if (nodes.length !== rows.length) return false;
  const childCount = new Map<string, number>();
  for (const row of rows)
    if (row.parentKey !== null) childCount.set(row.parentKey, (childCount.get(row.parentKey) ?? 0) + 1);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const row = rows[i];
    if (
      node.id !== row.nodeId ||
      node.requirements !== row.requirements ||
      node.weight !== row.weight ||
      node.task_category !== row.taskCategory ||
      node.sub_tasks.length !== (childCount.get(row.key) ?? 0) ||
      (node.file?.hasFinegrained && node.finegrained_task_category !== row.finegrainedTaskCategory)
    ) {
      return false;
    }
  }
  return true;
}

export interface PinnedGradedTree {
  /** The tree with the verdicts (overrides not applied): what the grading said. */
  tree: GradedNode;
  /** The row key of each node, in pre-order (index i of `preorder(tree)`). */
  keys: string[];
  /** Scores with the latest override of each leaf applied: `scores.rootScore` is the effective score. */
  scores: GradingScores;
  /** Pre-order index of each node key. */
  indexOfKey: Map<string, number>;
}

/**
 * Builds the graded tree of a grading from its pinned rows (pre-order, see `viewRows`), its
 * verdicts and its overrides (oldest first; the latest of a leaf wins, and counts as valid).
 * A leaf without a verdict is ungraded: score 0, not valid (counts 0), as PaperBench defaults it.
 */
export function buildPinnedGradedTree(
  rows: readonly NodeRow[],
  verdicts: Iterable<StoredVerdict>,
  overrides: Iterable<StoredOverride> = [],
): PinnedGradedTree {
  const { root, keys } = gradedNodes(rows, verdicts);
  const scores = GradingScores.fromTree(root);
  // The tree's internal scores as the verdicts give them.
  const tree = scores.toTree();
  const indexOfKey = applyOverrides(scores, keys, overrides);
  return { tree, keys, scores, indexOfKey };
}

/** A verdict as far as scores go. */
export type VerdictScore = Pick<StoredVerdict, "nodeKey" | "score" | "valid">;

/**
 * The scores `buildPinnedGradedTree` gives (overrides applied), without the verdicts' texts or a
 * copy of the tree: what a score recompute needs (a judge run's, every second; an override's).
 */
export function pinnedGradingScores(
  rows: readonly NodeRow[],
  verdicts: Iterable<VerdictScore>,
  overrides: Iterable<StoredOverride> = [],
): GradingScores {
  const { root, keys } = gradedNodes(rows, verdicts);
  const scores = GradingScores.fromTree(root);
  applyOverrides(scores, keys, overrides);
  return scores;
}

function gradedNodes(
  rows: readonly NodeRow[],
  verdicts: Iterable<VerdictScore & Partial<StoredVerdict>>,
): { root: GradedNode; keys: string[] } {
  const byKey = new Map<string, VerdictScore & Partial<StoredVerdict>>();
  for (const v of verdicts) byKey.set(v.nodeKey, v);
  const nodeOf = new Map<string, GradedNode>();
  let root: GradedNode | null = null;
  const keys: string[] = [];
  for (const row of rows) {
    const node: GradedNode = {
      id: row.nodeId,
      requirements: row.requirements,
      weight: row.weight,
      score: 0,
      valid_score: true,
      task_category: row.taskCategory,
      finegrained_task_category: row.finegrainedTaskCategory,
      explanation: AGGREGATED_EXPLANATION,
      judge_metadata: null,
      sub_tasks: [],
    };
    nodeOf.set(row.key, node);
    keys.push(row.key);
    if (row.parentKey === null) root = node;
    else nodeOf.get(row.parentKey)!.sub_tasks.push(node);
  }
  if (!root) throw new Error("A pinned rubric version has no rows");
  for (const row of rows) {
    const node = nodeOf.get(row.key)!;
    if (node.sub_tasks.length > 0) continue;
    const verdict = byKey.get(row.key);
    if (!verdict) {
      node.valid_score = false;
      node.explanation = UNGRADED_EXPLANATION;
      continue;
    }
    node.score = verdict.score;
    node.valid_score = verdict.valid;
    node.explanation = verdict.explanation ?? "";
    node.judge_metadata = verdict.judgeMetadata ?? null;
    if (verdict.fileDetail?.validScoreNumber !== undefined)
      node.file = { validScoreNumber: verdict.fileDetail.validScoreNumber };
  }
  return { root, keys };
}

/** The latest override of each leaf applied to `scores` (it counts as valid); answers each key's pre-order index. */
function applyOverrides(
  scores: GradingScores,
  keys: string[],
  overrides: Iterable<StoredOverride>,
): Map<string, number> {
  const indexOfKey = new Map<string, number>();
  keys.forEach((k, i) => indexOfKey.set(k, i));
  for (const o of overrides) {
    const index = indexOfKey.get(o.nodeKey);
    if (index !== undefined && scores.isLeaf(index)) scores.setLeaf(index, { score: o.newScore, valid: true });
  }
  return indexOfKey;
}
