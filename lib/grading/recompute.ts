/**
 * Scores of a grading, and the one aggregation of a graded tree: an internal node scores the
 * weighted mean of its children, PaperBench's `score_from_children`
 * (`paperbench/judge/graded_task_node.py`):
 *
 *     total_weight = sum(child.weight for child in children)
 *     if total_weight == 0: return 0.0
 *     return sum(child.score * child.weight for child in children) / total_weight
 *
 * Python's `sum` before 3.12 (PaperBench runs on 3.11) adds left to right with plain double
 * additions, starting from the int 0; so does `computeInternal`. (Python 3.12's compensated `sum`
 * gives other last bits: it would not reproduce the shipped human gradings, see the tests.) An
 * invalid leaf (`valid_score` false: a judge error) counts 0, as DESIGN.md says; PaperBench's
 * judge writes 0 for those anyway.
 *
 * Set a leaf's verdict (a human override, a new judge verdict) and its ancestors and the root are
 * recomputed at once, along the path to the root only, in the same order as a full
 * recomputation, so an incremental root is bit-identical to `recomputeScores` of the same leaves.
 * Pure; no Node built-ins; the same code runs in the browser (review page) and on the server.
 */
import { verdictLeafScore } from "./effective-score";
import type { GradedNode } from "./types";

/** A leaf override, or a verdict: `valid` defaults to true (a person's verdict is valid). */
export interface LeafVerdict {
  score: number;
  valid?: boolean;
}

/** Something the caller asked for that the tree cannot take (an unknown id, a score out of range). */
export class GradingInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GradingInputError";
  }
}

function checkScore(score: number, what: string): void {
  if (typeof score !== "number" || !(score >= 0 && score <= 1)) {
    throw new GradingInputError(`${what}: a score must be a number between 0 and 1, got ${String(score)}`);
  }
}

/**
 * The scores of one graded tree, nodes addressed by their pre-order index (0 is the root; ids
 * may repeat in real rubrics, so an index is the exact handle; `indexOfId` gives the first node
 * with an id, as PaperBench's `find` does).
 */
export class GradingScores {
  /** The nodes in pre-order, as given (never mutated). */
  readonly nodes: readonly GradedNode[];
  private readonly parent: Int32Array;
  private readonly childOffsets: Int32Array;
  private readonly childList: Int32Array;
  private readonly weight: Float64Array;
  /** Σ of the children's weights, left to right from 0 (constant: weights do not change here). */
  private readonly totalWeight: Float64Array;
  /** A leaf: its score as set; an internal node: its computed score. */
  private readonly score: Float64Array;
  private readonly valid: Uint8Array;
  /** Built on the first lookup by id (the review page never needs it). */
  private firstIndexOfId: Map<string, number> | null = null;

  private constructor(tree: GradedNode) {
    // Pre-order with each node's parent index (no map from node to index: a node may also be
    // shared between two places of a hand-built tree).
    const nodes: GradedNode[] = [];
    const parents: number[] = [];
    const stack: GradedNode[] = [tree];
    const stackParents: number[] = [-1];
    while (stack.length > 0) {
      const node = stack.pop()!;
      parents.push(stackParents.pop()!);
      const index = nodes.push(node) - 1;
      for (let c = node.sub_tasks.length - 1; c >= 0; c--) {
        stack.push(node.sub_tasks[c]);
        stackParents.push(index);
      }
    }
    const n = nodes.length;
    this.nodes = nodes;
    this.parent = Int32Array.from(parents);
    this.childOffsets = new Int32Array(n + 1);
    this.childList = new Int32Array(Math.max(0, n - 1));
    this.weight = new Float64Array(n);
    this.totalWeight = new Float64Array(n);
    this.score = new Float64Array(n);
    this.valid = new Uint8Array(n);

    for (let i = 0; i < n; i++) {
      const node = nodes[i];
      this.childOffsets[i + 1] = this.childOffsets[i] + node.sub_tasks.length;
      this.weight[i] = node.weight;
      this.score[i] = node.score;
      this.valid[i] = node.valid_score ? 1 : 0;
    }
    // Siblings come in pre-order left to right: each child list fills in order, and each total
    // is summed left to right from 0.
    const next = this.childOffsets.slice(0, n);
    for (let i = 1; i < n; i++) {
      const p = this.parent[i];
      this.childList[next[p]++] = i;
      this.totalWeight[p] += this.weight[i];
    }
    // Internal scores from the leaves, bottom-up (children come after their parent in pre-order).
    for (let i = n - 1; i >= 0; i--) if (!this.isLeaf(i)) this.score[i] = this.computeInternal(i);
  }

  /** The scores of `tree`, internal nodes recomputed from its leaves. */
  static fromTree(tree: GradedNode): GradingScores {
    return new GradingScores(tree);
  }

  get size(): number {
    return this.nodes.length;
  }

  get rootScore(): number {
    return this.score[0];
  }

  /** The first node with this id in pre-order, or -1. */
  indexOfId(id: string): number {
    if (!this.firstIndexOfId) {
      const first = new Map<string, number>();
      for (let i = 0; i < this.nodes.length; i++) if (!first.has(this.nodes[i].id)) first.set(this.nodes[i].id, i);
      this.firstIndexOfId = first;
    }
    return this.firstIndexOfId.get(id) ?? -1;
  }

  parentOf(index: number): number {
    return this.parent[index];
  }

  childrenOf(index: number): number[] {
    return Array.from(this.childList.subarray(this.childOffsets[index], this.childOffsets[index + 1]));
  }

  isLeaf(index: number): boolean {
    return this.childOffsets[index + 1] === this.childOffsets[index];
  }

  /** A leaf's score as set (an invalid leaf may carry one; it counts 0); an internal node's computed score. */
  scoreOf(index: number): number {
    return this.score[index];
  }

  validOf(index: number): boolean {
    return this.valid[index] === 1;
  }

  /**
   * What a node counts in its parent's mean: a leaf its effective score (`verdictLeafScore`: 0
   * when invalid; an override is a valid verdict), an internal node its computed score.
   */
  effectiveScoreOf(index: number): number {
    return this.isLeaf(index) ? verdictLeafScore(this.score[index], this.valid[index] === 1) : this.score[index];
  }

  /**
   * Sets a leaf's verdict and recomputes its ancestors; returns the indices whose score changed
   * (the leaf first, then up towards the root). O(depth × siblings).
   */
  setLeaf(index: number, verdict: LeafVerdict | number): number[] {
    if (!(index >= 0 && index < this.size)) throw new GradingInputError(`no node at index ${index}`);
    if (!this.isLeaf(index)) {
      throw new GradingInputError(
        `node ${JSON.stringify(this.nodes[index].id)} is not a leaf: only leaves take verdicts`,
      );
    }
    const { score, valid = true } = typeof verdict === "number" ? { score: verdict } : verdict;
    checkScore(score, `leaf ${JSON.stringify(this.nodes[index].id)}`);
    this.score[index] = score;
    this.valid[index] = valid ? 1 : 0;
    const changed = [index];
    for (let p = this.parent[index]; p >= 0; p = this.parent[p]) {
      const next = this.computeInternal(p);
      if (Object.is(next, this.score[p])) break; // nothing above changes either
      this.score[p] = next;
      changed.push(p);
    }
    return changed;
  }

  /** Back to the verdict the tree was built with. */
  resetLeaf(index: number): number[] {
    const node = this.nodes[index];
    return this.setLeaf(index, { score: node.score, valid: node.valid_score });
  }

  /**
   * Applies overrides by leaf id (the first node with the id, as PaperBench's `find`); every id is
   * checked before anything changes.
   */
  applyOverrides(
    overrides: ReadonlyMap<string, LeafVerdict | number> | Readonly<Record<string, LeafVerdict | number>>,
  ): void {
    const entries = overrides instanceof Map ? [...overrides] : Object.entries(overrides);
    const resolved: [number, LeafVerdict | number][] = [];
    for (const [id, verdict] of entries) {
      const index = this.indexOfId(id);
      if (index < 0) throw new GradingInputError(`no node has the id ${JSON.stringify(id)}`);
      if (!this.isLeaf(index))
        throw new GradingInputError(`node ${JSON.stringify(id)} is not a leaf: only leaves take verdicts`);
      checkScore(typeof verdict === "number" ? verdict : verdict.score, `leaf ${JSON.stringify(id)}`);
      resolved.push([index, verdict]);
    }
    for (const [index, verdict] of resolved) this.setLeaf(index, verdict);
  }

  /** A new tree with the current verdicts and scores (other fields as given). */
  toTree(): GradedNode {
    const copies: GradedNode[] = new Array(this.size);
    for (let i = this.size - 1; i >= 0; i--) {
      const node = this.nodes[i];
      const kids = this.childList.subarray(this.childOffsets[i], this.childOffsets[i + 1]);
      copies[i] = {
        ...node,
        score: this.score[i],
        valid_score: this.isLeaf(i) ? this.valid[i] === 1 : node.valid_score,
        file: node.file ? { ...node.file } : undefined,
        sub_tasks: Array.from(kids, (c) => copies[c]),
      };
      if (copies[i].file === undefined) delete copies[i].file;
    }
    return copies[0];
  }

  /** The weighted mean of the children's current values (see above), weights summed once at construction. */
  private computeInternal(index: number): number {
    const total = this.totalWeight[index];
    if (total === 0) return 0;
    let weighted = 0;
    for (let k = this.childOffsets[index]; k < this.childOffsets[index + 1]; k++) {
      const c = this.childList[k];
      weighted += this.effectiveScoreOf(c) * this.weight[c];
    }
    return weighted / total;
  }
}

/** A copy of `tree` with the overrides (leaf id → score or verdict) applied and every score recomputed. */
export function applyOverrides(
  tree: GradedNode,
  overrides: ReadonlyMap<string, LeafVerdict | number> | Readonly<Record<string, LeafVerdict | number>>,
): GradedNode {
  const scores = GradingScores.fromTree(tree);
  scores.applyOverrides(overrides);
  return scores.toTree();
}
