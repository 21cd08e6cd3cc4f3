import "server-only";
import type { Executor } from "@/db/client";
import { listReviewTotals } from "@/db/queries/grading-reviews";
import { leafKeysOf, leavesUnder } from "@/lib/review/visibility";
import type { NodeRow } from "@/lib/rubric/tree-rows";

/** How far a grader got on an assignment; shared by the assignment list and the review queue. */
export interface AssignmentProgress {
  /** Leaves in the assignment this grader has committed a score on. */
  reviewed: number;
  /** Leaves in the assignment. */
  total: number;
  /** Time spent on the leaves they committed, summed. */
  timeSpentMs: number;
  lastReviewAt: Date | null;
}

export type LeafMarks = Map<string, { ms: number; at: Date }>;

/** The leaves an assignment covers: its subtrees' leaves, or every leaf. */
export function scopeOf(rows: readonly NodeRow[], nodeKeys: readonly string[] | null): Set<string> {
  return nodeKeys ? leavesUnder(rows, nodeKeys) : new Set(leafKeysOf(rows));
}

/** Per grader and leaf: committed or not, time spent, last commit; by `${gradingId}/${userId}`. */
export async function reviewTotals(
  db: Executor,
  gradingIds: readonly string[],
  userIds?: readonly string[],
): Promise<Map<string, LeafMarks>> {
  const out = new Map<string, LeafMarks>();
  for (const r of await listReviewTotals(db, gradingIds, userIds)) {
    const id = `${r.gradingId}/${r.userId}`;
    let m = out.get(id);
    if (!m) out.set(id, (m = new Map()));
    m.set(r.nodeKey, { ms: r.ms, at: r.at });
  }
  return out;
}

export function progressOf(scope: ReadonlySet<string>, marks: LeafMarks | undefined): AssignmentProgress {
  let reviewed = 0;
  let timeSpentMs = 0;
  let lastReviewAt: Date | null = null;
  for (const [key, t] of marks ?? []) {
    if (!scope.has(key)) continue;
    reviewed++;
    timeSpentMs += t.ms;
    if (!lastReviewAt || t.at > lastReviewAt) lastReviewAt = t.at;
  }
  return { reviewed, total: scope.size, timeSpentMs, lastReviewAt };
}
