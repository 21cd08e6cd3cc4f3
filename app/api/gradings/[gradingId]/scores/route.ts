import { parseJsonBody } from "@/server/http/body";
import { requireGradingAccess } from "@/server/gradings/grading-access";
import { apiRoute } from "@/server/http/route";
import { commitReviewScore } from "@/server/reviews/commit-review-score";
import { reviewCommitSchema } from "@/lib/review/schemas";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { gradingId: string };

/**
 * Commits the user's score on one leaf (staff, and graders on their assigned leaves): a review
 * mark, and an override when the score differs from the leaf's effective score (a reason is then
 * required, except under a blind assignment). Answers with the leaf as the user now sees it (a
 * blind leaf's verdict is revealed) and the new root score.
 */
export const POST = apiRoute<Params>({}, async ({ req, store, user, params }) => {
  const access = await requireGradingAccess(store, user, params.gradingId, "review");
  const body = await parseJsonBody(req, reviewCommitSchema, 64 * 1024);
  const result = await commitReviewScore(store, {
    grading: access.grading,
    userId: user.id,
    ...body,
    visibility: await access.visibility(),
  });
  return jsonAnswer(result, { status: 201 });
});
