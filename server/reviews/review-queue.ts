import "server-only";
import type { Store } from "@/db/client";
import { listQueueRows } from "@/db/queries/grading-reviews";
import { countVerdictsByGradingIds } from "@/db/queries/grading-verdicts";
import type { UserRef } from "@/db/queries/users";
import type { GradingKind } from "@/db/schema";
import type { Variant } from "@/lib/grading/variant";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { progressOf, reviewTotals, scopeOf, type AssignmentProgress } from "./progress";

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
