import { commitReview, listVerdictKeys } from "@/db/queries/grading-reviews";
import { parseJsonBody } from "@/server/http/body";
import { requireGradingAccess } from "@/server/access/grading-access";
import { apiRoute } from "@/server/http/route";
import { reviewCommitSchema } from "@/lib/review/schemas";
import type { ReviewCommitResult } from "@/lib/review/types";
import { hidesAny } from "@/lib/review/visibility";

type Params = { gradingId: string };

/**
 * Commits the user's score on one leaf (staff, and graders on their assigned leaves): a review
 * mark, and an override when the score differs from the leaf's effective score (a reason is then
 * required, except under a blind assignment). Answers with the leaf as the user now sees it (a
 * blind leaf's verdict is revealed) and the new root score.
 */
export const POST = apiRoute<Params>({}, async ({ req, db, user, params }) => {
  const access = await requireGradingAccess(db, user, params.gradingId, "review");
  const body = await parseJsonBody(req, reviewCommitSchema, 64 * 1024);
  const visibility = await access.visibility();
  const outcome = await commitReview(db, { grading: access.grading, userId: user.id, ...body, visibility });
  // The root score shows once no verdict is hidden from this user any more.
  const after = { ...visibility, committed: new Set([...visibility.committed, body.nodeKey]) };
  const stillHidden = (after.scope !== null || after.blind) && hidesAny(await listVerdictKeys(db, access.grading.id), after);
  const result: ReviewCommitResult = {
    review: outcome.review,
    override: outcome.override,
    leaf: outcome.leaf,
    rootScore: stillHidden ? null : outcome.score,
    reviewedAt: outcome.reviewedAt?.toISOString() ?? null,
  };
  return Response.json(result, { status: 201 });
});
