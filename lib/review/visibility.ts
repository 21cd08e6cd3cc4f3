/**
 * Who sees which verdict of a grading. Staff and the paper's authors see every verdict; a grader
 * sees the leaves of the subtrees assigned to them (the whole grading when the assignment names
 * none), and under a blind assignment a leaf's verdict only once they have committed a score on
 * it. The server applies this before anything leaves it (never only the page). Pure.
 */
import type { HiddenReason } from "./types";

interface KeyedRow {
  key: string;
  parentKey: string | null;
}

/** The leaves (keys) of a tree's `rows`: the rows no other row names as its parent. */
export function leafKeysOf(rows: readonly KeyedRow[]): string[] {
  const parents = new Set<string>();
  for (const r of rows) if (r.parentKey !== null) parents.add(r.parentKey);
  return rows.filter((r) => !parents.has(r.key)).map((r) => r.key);
}

/** The leaves (keys) of the subtrees rooted at `roots`, among pre-order `rows`. */
export function leavesUnder(rows: readonly KeyedRow[], roots: readonly string[]): Set<string> {
  const hasChildren = new Set<string>();
  for (const r of rows) if (r.parentKey !== null) hasChildren.add(r.parentKey);
  const inside = new Set<string>(roots);
  const leaves = new Set<string>();
  // Pre-order: a parent comes before its children, so one pass marks every descendant.
  for (const r of rows) {
    if (!inside.has(r.key) && r.parentKey !== null && inside.has(r.parentKey)) inside.add(r.key);
    if (inside.has(r.key) && !hasChildren.has(r.key)) leaves.add(r.key);
  }
  return leaves;
}

/** What one viewer may see of one grading. */
export interface LeafVisibility {
  /** The leaves the viewer may see, or null for all of them. */
  scope: ReadonlySet<string> | null;
  /** Verdicts show only once the viewer has committed a score on the leaf. */
  blind: boolean;
  /** The leaves this viewer has committed a score on. */
  committed: ReadonlySet<string>;
}

export const SEE_EVERYTHING: LeafVisibility = { scope: null, blind: false, committed: new Set() };

/**
 * What a grader's assignment lets them see: the leaves of its subtrees (every leaf when it names
 * none) and, when blind, only those they have committed a score on (`committed`). `rows`: the
 * pinned rows in pre-order (needed only when the assignment names subtrees).
 */
export function assignmentVisibility(
  rows: readonly KeyedRow[],
  assignment: { nodeKeys: readonly string[] | null; blind: boolean },
  committed: ReadonlySet<string>,
): LeafVisibility {
  if (!assignment.nodeKeys && !assignment.blind) return SEE_EVERYTHING;
  return {
    scope: assignment.nodeKeys ? leavesUnder(rows, assignment.nodeKeys) : null,
    blind: assignment.blind,
    committed: assignment.blind ? committed : new Set(),
  };
}

/** Why the viewer may not see this leaf's verdict, or null when they may. */
export function hiddenReason(leafKey: string, v: LeafVisibility): HiddenReason | null {
  if (v.scope && !v.scope.has(leafKey)) return "scope";
  if (v.blind && !v.committed.has(leafKey)) return "blind";
  return null;
}

/**
 * Which aggregates a viewer may see. A score computed from leaves (a node's, the root's, the
 * imported file's root score, a task category's, a run's on the leaderboard) gives away part of
 * every verdict under it: with the root and the verdicts they can see, a grader solves a hidden one.
 * So an aggregate is shown only when none of the leaves under it is hidden from the viewer. Every
 * answer that carries one asks this (the review payload, a commit's answer, the lists of gradings,
 * the leaderboard's drill-down); the review page's model applies it per node (`ReviewModel.scoreOf`).
 */
export function maySeeAggregate(leafKeys: Iterable<string>, v: LeafVisibility): boolean {
  if (!v.scope && !v.blind) return true;
  for (const k of leafKeys) if (hiddenReason(k, v) !== null) return false;
  return true;
}

/**
 * Whether a blind review is still open: some leaf the grader may score (of `leafKeys`, the
 * grading's leaves) is still hidden from them because they have not committed a score on it.
 * While one is open the grading's score is published nowhere, not even on the public leaderboard
 * (it shows "pending review"): the grader could read it there.
 */
export function blindReviewOpen(leafKeys: Iterable<string>, v: LeafVisibility): boolean {
  if (!v.blind) return false;
  for (const k of leafKeys) if (hiddenReason(k, v) === "blind") return true;
  return false;
}

/**
 * The "unsure" flags a viewer may see on a leaf: all of them where they see its verdict; of a leaf
 * hidden from them only their own (another reviewer's note may say what the hidden verdict is).
 */
export function visibleUnsureFlags<F extends { userId: string }>(
  flags: readonly F[],
  hidden: HiddenReason | null,
  viewerId: string,
): F[] {
  return hidden ? flags.filter((f) => f.userId === viewerId) : [...flags];
}
