import { requireGradingAccess } from "@/server/gradings/grading-access";
import { apiRoute } from "@/server/http/route";
import { getReviewPayloadJson } from "@/server/reviews/review-payload";

type Params = { gradingId: string };

/**
 * One grading for the review page: the pinned rubric's nodes, each leaf's verdict as the user may
 * see it (a grader: the assigned subtrees; blind: after committing), overrides and review marks
 * per leaf, and the effective root score. Explanations and judge responses come per leaf
 * (`…/leaves/<key>`).
 */
export const GET = apiRoute<Params>({}, async ({ store, user, params }) => {
  const { grading, role, assignment } = await requireGradingAccess(store, user, params.gradingId, "view");
  const json = await getReviewPayloadJson(store, grading, { userId: user.id, role, assignment });
  return new Response(json, {
    headers: { "content-type": "application/json", "cache-control": "private, no-store" },
  });
});
