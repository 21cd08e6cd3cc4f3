import "server-only";
import type { Executor } from "@/db/client";
import { listBlindAssignments } from "@/db/queries/leaderboard";
import type { Variant } from "@/lib/grading/variant";
import { assignmentVisibility, blindReviewOpen, leafKeysOf } from "@/lib/review/visibility";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { reviewTotals } from "@/server/reviews/progress";

/**
 * The gradings of a variant under an open blind review: a blind assignment whose holder has not
 * yet committed a score on every leaf they may score (`blindReviewOpen`). The board publishes no
 * score of these. Every blind assignment counts, whoever holds it: the board does not follow
 * paper roles (a staff member's blind assignment hides nothing from them, but their score waits
 * too), so a change of role can never publish a score a blind grader should not see.
 */
export async function listPendingReviewGradings(db: Executor, variant: Variant): Promise<Set<string>> {
  const blind = await listBlindAssignments(db, variant);
  const pending = new Set<string>();
  if (blind.length === 0) return pending;
  const totals = await reviewTotals(
    db,
    [...new Set(blind.map((a) => a.gradingId))],
    [...new Set(blind.map((a) => a.userId))],
  );
  for (const a of blind) {
    if (pending.has(a.gradingId)) continue;
    const rows = await getGradingRows(db, a);
    const committed = new Set(totals.get(`${a.gradingId}/${a.userId}`)?.keys() ?? []);
    if (blindReviewOpen(leafKeysOf(rows), assignmentVisibility(rows, { nodeKeys: a.nodeKeys, blind: true }, committed)))
      pending.add(a.gradingId);
  }
  return pending;
}
