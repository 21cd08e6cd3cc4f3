import "server-only";
import type { Store } from "@/db/client";
import { listQueueRows, listReviewTotals } from "@/db/queries/grading-reviews";
import { assignmentVisibility, leafKeysOf, maySeeAggregate } from "@/lib/review/visibility";
import { getGradingRows } from "./pinned-grading";

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
  // One read for the committed leaves of every blind assignment, not one per grading.
  const committedByGrading = new Map<string, Set<string>>();
  const blindIds = rows.filter((r) => r.blind).map((r) => r.gradingId);
  for (const t of await listReviewTotals(db, blindIds, [userId])) {
    if (!committedByGrading.has(t.gradingId)) committedByGrading.set(t.gradingId, new Set());
    committedByGrading.get(t.gradingId)!.add(t.nodeKey);
  }
  const out = new Map<string, { scoreHidden: boolean }>();
  for (const r of rows) {
    let scoreHidden = false;
    if (r.blind || r.nodeKeys) {
      const pinned = await getGradingRows(db, r);
      const committed = committedByGrading.get(r.gradingId) ?? new Set<string>();
      scoreHidden = !maySeeAggregate(leafKeysOf(pinned), assignmentVisibility(pinned, r, committed));
    }
    out.set(r.gradingId, { scoreHidden });
  }
  return out;
}
