import "server-only";
import type { Store } from "@/db/client";
import { listQueueRows } from "@/db/queries/grading-reviews";
import { countVerdictsByGradingIds } from "@/db/queries/grading-verdicts";
import type { UserRef } from "@/db/queries/users";
import type { GradingKind } from "@/db/schema";
import type { Variant } from "@/lib/grading/variant";
import { assignmentVisibility, maySeeAggregate } from "@/lib/review/visibility";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { leafKeysOf, progressOf, reviewTotals, scopeOf, type AssignmentProgress } from "./progress";

export interface ReviewQueueItem {
  assignmentId: string;
  gradingId: string;
  paperId: string;
  paperTitle: string;
  agentName: string;
  runIndex: number;
  variant: Variant;
  kind: GradingKind;
  nodeKeys: string[] | null;
  blind: boolean;
  grader: UserRef;
  assignedAt: Date;
  progress: AssignmentProgress;
}

/** Assignments with their progress: one grader's queue (`userId`), or everyone's (staff overview). */
export async function listReviewQueue(store: Store, opts: { userId?: string } = {}): Promise<ReviewQueueItem[]> {
  const { db } = store;
  const rows = await listQueueRows(db, opts);
  const gradingIds = [...new Set(rows.map((r) => r.gradingId))];
  const totals = await reviewTotals(db, gradingIds, opts.userId ? [opts.userId] : undefined);
  // A whole-grading scope needs only the leaf count; subtrees need the pinned rows.
  const leafCounts = await countVerdictsByGradingIds(db, gradingIds);
  const rowsOf = new Map<string, Promise<readonly NodeRow[]>>();
  const out: ReviewQueueItem[] = [];
  for (const r of rows) {
    const marks = totals.get(`${r.gradingId}/${r.userId}`);
    let progress: AssignmentProgress;
    if (r.nodeKeys) {
      if (!rowsOf.has(r.gradingId)) rowsOf.set(r.gradingId, getGradingRows(db, r));
      progress = progressOf(scopeOf(await rowsOf.get(r.gradingId)!, r.nodeKeys), marks);
    } else {
      // Every mark is on a leaf of the grading (verdict keys).
      const all = progressOf(new Set(marks?.keys() ?? []), marks);
      progress = { ...all, total: leafCounts.get(r.gradingId) ?? 0 };
    }
    out.push({
      assignmentId: r.assignmentId,
      gradingId: r.gradingId,
      paperId: r.paperId,
      paperTitle: r.paperTitle,
      agentName: r.agentName,
      runIndex: r.runIndex,
      variant: r.variant,
      kind: r.kind,
      nodeKeys: r.nodeKeys,
      blind: r.blind,
      grader: { name: r.userName, email: r.userEmail },
      assignedAt: r.assignedAt,
      progress,
    });
  }
  return out;
}

/**
 * The gradings assigned to a grader, each with whether its root score is hidden from them: the
 * root (and the imported file's root score) aggregates every leaf, so it shows only when their
 * assignment hides none (`maySeeAggregate`, the review page's own rule). For lists that name
 * gradings with their scores: a paper's gradings, the leaderboard's drill-down.
 */
export async function listAssignedGradings(
  store: Store,
  userId: string,
): Promise<Map<string, { scoreHidden: boolean }>> {
  const { db } = store;
  const rows = await listQueueRows(db, { userId });
  const totals = await reviewTotals(
    db,
    rows.filter((r) => r.blind).map((r) => r.gradingId),
    [userId],
  );
  const out = new Map<string, { scoreHidden: boolean }>();
  for (const r of rows) {
    let scoreHidden = false;
    if (r.blind || r.nodeKeys) {
      const pinned = await getGradingRows(db, r);
      const committed = new Set(totals.get(`${r.gradingId}/${userId}`)?.keys() ?? []);
      scoreHidden = !maySeeAggregate(leafKeysOf(pinned), assignmentVisibility(pinned, r, committed));
    }
    out.set(r.gradingId, { scoreHidden });
  }
  return out;
}
