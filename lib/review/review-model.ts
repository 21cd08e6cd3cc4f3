/**
 * The review page's model of one grading: the pinned tree with each leaf's verdict as this viewer
 * may see it, the scores (PaperBench's aggregation, `GradingScores`: a committed score recomputes
 * the leaf's ancestors and the root along the path only), review progress, filters and the leaf
 * order that `j`/`k`/`n` walk. A commit is applied here at once (optimistic) and then confirmed or
 * rolled back by the server's answer. Pure; no framework: the browser runs it, tests run it.
 */
import { effectiveLeafScore } from "@/lib/grading/effective-score";
import { GradingScores } from "@/lib/grading/recompute";
import type { GradedNode } from "@/lib/grading/types";
import { distinguishingStarts, oneLine, rowText } from "./row-text";
import type { ReviewLeaf, ReviewNode, ReviewPayload, ReviewUnsureFlag } from "./types";

export const NO_CATEGORY = "(none)";

export interface ReviewFilters {
  unreviewed: boolean;
  invalid: boolean;
  disagreement: boolean;
  /** Leaves a reviewer flagged "unsure". */
  unsure: boolean;
  /** A task category, `NO_CATEGORY`, or "" for any. */
  category: string;
}

export const NO_REVIEW_FILTERS: ReviewFilters = {
  unreviewed: false,
  invalid: false,
  disagreement: false,
  unsure: false,
  category: "",
};

export function reviewFiltersActive(f: ReviewFilters): boolean {
  return f.unreviewed || f.invalid || f.disagreement || f.unsure || f.category !== "";
}

export interface CategoryProgress {
  category: string;
  reviewed: number;
  total: number;
}

export interface ReviewProgress {
  reviewed: number;
  total: number;
  byCategory: CategoryProgress[];
}

/** What a commit did locally, to be confirmed or undone. */
export interface LocalCommit {
  key: string;
  score: number;
  /** The commit changes the leaf's score (an override), as far as this viewer can tell. */
  overrides: boolean;
  /** The leaf's score was hidden (blind): whether it overrides is the server's to say. */
  blind: boolean;
  undo(): void;
}

export class ReviewModel {
  readonly nodes: readonly ReviewNode[];
  readonly indexOf = new Map<string, number>();
  /**
   * The roots of the tree the page shows: the subtrees assigned to a grader (outermost first, in
   * pre-order), else the rubric's root. A subtree grader works in their subtree, not in the whole
   * tree with every other verdict hidden.
   */
  readonly viewRoots: readonly string[];
  /** How many nodes the page's tree holds (those under `viewRoots`). */
  readonly viewSize: number;
  private readonly viewed: readonly boolean[];
  /** Pre-order indices of the leaves under `viewRoots`: what `j`/`k`/`n` walk and the page counts. */
  readonly leafOrder: readonly number[];
  readonly scores: GradingScores;
  private readonly verdictScores: GradingScores;
  readonly categories: readonly string[];
  /** Counts the viewer's own marks (a grader, or anyone with an assignment), else anyone's. */
  readonly countsOwnReviews: boolean;
  private readonly leaves = new Map<string, ReviewLeaf>();
  /** Hidden leaves in each node's subtree: `maySeeAggregate` (visibility.ts) per node, kept up to date. */
  private readonly hiddenBelow: Int32Array;
  private rootFromServer: number | null;
  private versionNo = 0;
  private readonly listeners = new Set<() => void>();

  constructor(readonly payload: ReviewPayload) {
    this.nodes = payload.nodes;
    payload.nodes.forEach((n, i) => this.indexOf.set(n.key, i));
    for (const leaf of payload.leaves) this.leaves.set(leaf.key, { ...leaf });
    // The graded tree of the verdicts, then its scores twice: as the verdicts give them, and with
    // the latest override of each leaf applied in the order `buildPinnedGradedTree` applies them
    // (so the root is bit for bit the server's).
    const tree = verdictTree(payload);
    this.verdictScores = GradingScores.fromTree(tree);
    this.scores = GradingScores.fromTree(tree);
    for (const leaf of payload.leaves) {
      const i = this.indexOf.get(leaf.key);
      if (leaf.override !== null && i !== undefined && this.scores.isLeaf(i))
        this.scores.setLeaf(i, { score: leaf.override, valid: true });
    }
    const inView = viewMask(payload);
    this.viewed = inView;
    this.viewRoots = payload.nodes
      .filter((n, i) => inView[i] && (n.parentKey === null || !inView[this.indexOf.get(n.parentKey)!]))
      .map((n) => n.key);
    this.viewSize = inView.reduce((n, v) => n + (v ? 1 : 0), 0);
    const order: number[] = [];
    const cats = new Set<string>();
    for (let i = 0; i < this.nodes.length; i++) {
      if (!inView[i] || !this.scores.isLeaf(i)) continue;
      order.push(i);
      cats.add(this.nodes[i].taskCategory ?? NO_CATEGORY);
    }
    this.leafOrder = order;
    this.categories = [...cats].sort((a, b) => (a === NO_CATEGORY ? 1 : b === NO_CATEGORY ? -1 : a.localeCompare(b)));
    this.hiddenBelow = new Int32Array(this.nodes.length);
    for (const leaf of this.leaves.values()) if (leaf.hidden) this.bumpHidden(leaf.key, 1);
    this.countsOwnReviews = payload.viewer.role === "grader" || payload.viewer.assignment !== null;
    this.rootFromServer = payload.rootScore;
  }

  /* ---------- row text ---------- */

  /** Each parent's children (null: the roots), made at the first row text asked for. */
  private siblingsOf: Map<string | null, ReviewNode[]> | null = null;
  private readonly rowTexts = new Map<string, string>();

  /**
   * What the node's tree row shows: its requirement on one line, from its distinguishing tail when
   * it opens like a sibling's (row-text.ts). Computed for the node's siblings together, when the
   * first of them is shown: a page shows a few dozen rows of a tree of thousands.
   */
  rowTextOf(key: string): string {
    const known = this.rowTexts.get(key);
    if (known !== undefined) return known;
    const i = this.indexOf.get(key);
    if (i === undefined) return "";
    if (!this.siblingsOf) {
      this.siblingsOf = new Map();
      for (const n of this.nodes) {
        const group = this.siblingsOf.get(n.parentKey);
        if (group) group.push(n);
        else this.siblingsOf.set(n.parentKey, [n]);
      }
    }
    const group = this.siblingsOf.get(this.nodes[i].parentKey)!;
    const texts = group.map((n) => oneLine(n.requirements));
    const starts = distinguishingStarts(texts);
    group.forEach((n, at) => this.rowTexts.set(n.key, rowText(texts[at], starts[at])));
    return this.rowTexts.get(key)!;
  }

  /* ---------- change notification (useSyncExternalStore) ---------- */

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.versionNo;

  /** Walks over every leaf, kept until the next change: the page asks for them on every render. */
  private readonly kept = new Map<string, { version: number; value: unknown }>();

  private perVersion<T>(name: string, compute: () => T): T {
    const hit = this.kept.get(name);
    if (hit?.version === this.versionNo) return hit.value as T;
    const value = compute();
    this.kept.set(name, { version: this.versionNo, value });
    return value;
  }

  private changed(): void {
    this.versionNo++;
    for (const l of this.listeners) l();
  }

  /* ---------- reading ---------- */

  keyAt(index: number): string {
    return this.nodes[index].key;
  }

  node(key: string): ReviewNode | undefined {
    const i = this.indexOf.get(key);
    return i === undefined ? undefined : this.nodes[i];
  }

  /** Whether the node is in the page's tree (under `viewRoots`). */
  inView(key: string): boolean {
    const i = this.indexOf.get(key);
    return i !== undefined && this.viewed[i];
  }

  isLeaf(key: string): boolean {
    const i = this.indexOf.get(key);
    return i !== undefined && this.scores.isLeaf(i);
  }

  leaf(key: string): ReviewLeaf | undefined {
    return this.leaves.get(key);
  }

  /** A node's effective score, or null when a leaf below it is hidden from this viewer. */
  scoreOf(key: string): number | null {
    const i = this.indexOf.get(key);
    if (i === undefined || this.hiddenBelow[i] > 0) return null;
    return this.scores.effectiveScoreOf(i);
  }

  /**
   * A node's score as the verdicts alone give it (the judge's, before any override), or null when
   * a leaf below it is hidden from this viewer.
   */
  verdictScoreOf(key: string): number | null {
    const i = this.indexOf.get(key);
    if (i === undefined || this.hiddenBelow[i] > 0) return null;
    return this.verdictScores.effectiveScoreOf(i);
  }

  /** The root's effective score; null when some leaf is hidden from this viewer. */
  get rootScore(): number | null {
    return this.hiddenBelow[0] > 0 ? null : this.scores.rootScore;
  }

  /** The root score the server gave last (for checking the local one). */
  get serverRootScore(): number | null {
    return this.rootFromServer;
  }

  /** The verdict's score when it is valid (what the judge said), else null. */
  judgeScore(key: string): number | null {
    const v = this.leaves.get(key)?.verdict;
    return v && v.valid ? v.score : null;
  }

  /** The leaf's effective score (latest override, else the verdict; an invalid verdict counts 0), or null when hidden. */
  effectiveScore(key: string): number | null {
    const leaf = this.leaves.get(key);
    if (!leaf || leaf.hidden) return null;
    return effectiveLeafScore(leaf.override, leaf.verdict);
  }

  inScope(key: string): boolean {
    const leaf = this.leaves.get(key);
    return !!leaf && leaf.hidden !== "scope";
  }

  isReviewed(key: string): boolean {
    const leaf = this.leaves.get(key);
    if (!leaf) return false;
    return this.countsOwnReviews ? leaf.mine !== null : leaf.reviews > 0 || leaf.mine !== null;
  }

  isInvalid(key: string): boolean {
    const leaf = this.leaves.get(key);
    return !!leaf?.verdict && !leaf.verdict.valid && leaf.override === null;
  }

  /** A person's score (an override) differs from the judge's valid verdict. */
  isDisagreement(key: string): boolean {
    const leaf = this.leaves.get(key);
    const judge = this.judgeScore(key);
    return !!leaf && leaf.override !== null && judge !== null && leaf.override !== judge;
  }

  /** Some reviewer flagged the leaf "unsure" (as far as this viewer may see). */
  isUnsure(key: string): boolean {
    return (this.leaves.get(key)?.unsure.length ?? 0) > 0;
  }

  /** The leaf is this viewer's to review next: in scope, not reviewed, and not skipped by them as unsure. */
  isToReview(key: string): boolean {
    const me = this.payload.viewer.userId;
    return this.inScope(key) && !this.isReviewed(key) && !this.leaves.get(key)?.unsure.some((f) => f.userId === me);
  }

  /** How many leaves of the page's tree are flagged "unsure". */
  unsureCount(): number {
    return this.perVersion("unsure", () => {
      let n = 0;
      for (const i of this.leafOrder) if (this.isUnsure(this.nodes[i].key)) n++;
      return n;
    });
  }

  /** The leaf's flags as the server now has them (after flagging or clearing). */
  setUnsure(key: string, flags: ReviewUnsureFlag[]): void {
    const leaf = this.leaves.get(key);
    if (!leaf) return;
    leaf.unsure = flags;
    this.changed();
  }

  matches(key: string, f: ReviewFilters): boolean {
    const i = this.indexOf.get(key);
    if (i === undefined || !this.scores.isLeaf(i)) return false;
    if (f.category && (this.nodes[i].taskCategory ?? NO_CATEGORY) !== f.category) return false;
    if (f.unreviewed && (!this.inScope(key) || this.isReviewed(key))) return false;
    if (f.invalid && !this.isInvalid(key)) return false;
    if (f.disagreement && !this.isDisagreement(key)) return false;
    if (f.unsure && !this.isUnsure(key)) return false;
    return true;
  }

  /** Leaves reviewed / leaves in this viewer's scope, overall and per task category. */
  progress(): ReviewProgress {
    return this.perVersion("progress", () => this.countProgress());
  }

  private countProgress(): ReviewProgress {
    const by = new Map<string, CategoryProgress>();
    let reviewed = 0;
    let total = 0;
    for (const i of this.leafOrder) {
      const key = this.nodes[i].key;
      if (!this.inScope(key)) continue;
      const category = this.nodes[i].taskCategory ?? NO_CATEGORY;
      let c = by.get(category);
      if (!c) by.set(category, (c = { category, reviewed: 0, total: 0 }));
      c.total++;
      total++;
      if (this.isReviewed(key)) {
        c.reviewed++;
        reviewed++;
      }
    }
    return { reviewed, total, byCategory: this.categories.flatMap((cat) => by.get(cat) ?? []) };
  }

  /**
   * The next (`step` 1) or previous (-1) leaf after `fromKey` in pre-order that passes `accept`,
   * wrapping around; from no key, the first (or last). Null when none does.
   */
  stepLeaf(fromKey: string | null, step: 1 | -1, accept: (key: string) => boolean = () => true): string | null {
    const n = this.leafOrder.length;
    if (n === 0) return null;
    let at: number;
    const from = fromKey === null ? undefined : this.indexOf.get(fromKey);
    if (from === undefined) at = step === 1 ? -1 : n;
    else {
      // The leaf position of `from`, or where it would be (an internal node: its first leaf follows it).
      at = lowerBound(this.leafOrder, from);
      if (this.leafOrder[at] !== from) at = step === 1 ? at - 1 : at;
    }
    for (let tried = 0; tried < n; tried++) {
      at = (at + step + n) % n;
      const key = this.nodes[this.leafOrder[at]].key;
      if (accept(key)) return key;
    }
    return null;
  }

  /* ---------- committing ---------- */

  /**
   * Applies a committed score at once: an override recomputes the leaf's ancestors and the root
   * (path only). Returns what it did, with `undo` for a refusal.
   */
  commitLocal(key: string, score: number): LocalCommit {
    const i = this.indexOf.get(key);
    const leaf = this.leaves.get(key);
    if (i === undefined || !leaf) throw new Error(`No leaf ${key}`);
    const before = { ...leaf };
    const blind = leaf.hidden === "blind";
    const effective = this.effectiveScore(key);
    const overrides = !blind && (effective !== score || this.isInvalid(key));
    leaf.mine = score;
    leaf.reviews += 1;
    // The server clears the committer's own "unsure" flag with the score.
    leaf.unsure = leaf.unsure.filter((f) => f.userId !== this.payload.viewer.userId);
    if (overrides) {
      leaf.override = score;
      this.scores.setLeaf(i, { score, valid: true });
    }
    this.changed();
    return {
      key,
      score,
      overrides,
      blind,
      undo: () => {
        this.replaceLeaf(before);
        this.changed();
      },
    };
  }

  /**
   * The leaf as the server now has it (after a commit; a blind leaf is revealed) and the server's
   * root score. Returns false when the local root then differs from the server's: someone else
   * changed the grading meanwhile, and the caller reloads.
   */
  confirm(leaf: ReviewLeaf, rootScore: number | null): boolean {
    this.replaceLeaf(leaf);
    this.rootFromServer = rootScore;
    this.changed();
    const local = this.rootScore;
    return rootScore === null || local === null || Object.is(local, rootScore);
  }

  private replaceLeaf(next: ReviewLeaf): void {
    const i = this.indexOf.get(next.key);
    const prev = this.leaves.get(next.key);
    if (i === undefined || !prev) return;
    if (!!prev.hidden !== !!next.hidden) this.bumpHidden(next.key, next.hidden ? 1 : -1);
    this.leaves.set(next.key, { ...next });
    // A revealed (or re-hidden) verdict.
    if (next.verdict) this.verdictScores.setLeaf(i, { score: next.verdict.score, valid: next.verdict.valid });
    else this.verdictScores.setLeaf(i, { score: 0, valid: false });
    if (next.override !== null) this.scores.setLeaf(i, { score: next.override, valid: true });
    else if (next.verdict) this.scores.setLeaf(i, { score: next.verdict.score, valid: next.verdict.valid });
    else this.scores.setLeaf(i, { score: 0, valid: false });
  }

  private bumpHidden(key: string, by: number): void {
    for (let i = this.indexOf.get(key) ?? -1; i >= 0; i = this.scores.parentOf(i)) this.hiddenBelow[i] += by;
  }
}

/** Which nodes (by pre-order index) are under the viewer's assigned subtrees; all of them without such an assignment. */
function viewMask(payload: ReviewPayload): boolean[] {
  const assigned = new Set(payload.viewer.assignment?.nodeKeys ?? []);
  const nodes = payload.nodes;
  if (!nodes.some((n) => assigned.has(n.key))) return nodes.map(() => true);
  const inside = new Set<string>();
  // Pre-order: a parent comes before its children.
  return nodes.map((n) => {
    const yes = assigned.has(n.key) || (n.parentKey !== null && inside.has(n.parentKey));
    if (yes) inside.add(n.key);
    return yes;
  });
}

/**
 * The graded tree of a payload's nodes with each leaf's verdict; a leaf without one (hidden, or
 * never graded) scores 0 and is not valid, as `buildPinnedGradedTree` has it.
 */
function verdictTree(payload: ReviewPayload): GradedNode {
  const verdictOf = new Map(payload.leaves.map((l) => [l.key, l.verdict]));
  const nodes: GradedNode[] = [];
  const byKey = new Map<string, GradedNode>();
  for (const n of payload.nodes) {
    const v = verdictOf.get(n.key);
    const node: GradedNode = {
      id: n.nodeId,
      requirements: n.requirements,
      weight: n.weight,
      score: v ? v.score : 0,
      valid_score: v ? v.valid : verdictOf.has(n.key) ? false : true,
      task_category: n.taskCategory,
      finegrained_task_category: n.finegrainedTaskCategory,
      explanation: "",
      judge_metadata: null,
      sub_tasks: [],
    };
    nodes.push(node);
    byKey.set(n.key, node);
    if (n.parentKey !== null) byKey.get(n.parentKey)?.sub_tasks.push(node);
  }
  if (nodes.length === 0) throw new Error("A graded tree needs a root");
  return nodes[0];
}

function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A score as the page shows it: `1`, `0`, `0.4375` → `43.8%`-style percentages for aggregates. */
export function formatScore(score: number | null): string {
  if (score === null) return "—";
  if (score === 0 || score === 1) return String(score);
  return `${(score * 100).toFixed(1)}%`;
}

/** A percentage of the root score (`43.75%`), two decimals. */
export function formatPercent(score: number | null): string {
  return score === null ? "—" : `${(score * 100).toFixed(2)}%`;
}
