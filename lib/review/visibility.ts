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

/** Why the viewer may not see this leaf's verdict, or null when they may. */
export function hiddenReason(leafKey: string, v: LeafVisibility): HiddenReason | null {
  if (v.scope && !v.scope.has(leafKey)) return "scope";
  if (v.blind && !v.committed.has(leafKey)) return "blind";
  return null;
}

/** Whether any of the leaves is hidden from this viewer. */
export function hidesAny(leafKeys: Iterable<string>, v: LeafVisibility): boolean {
  if (!v.scope && !v.blind) return false;
  for (const k of leafKeys) if (hiddenReason(k, v) !== null) return true;
  return false;
}
