import { getReviewPayload } from "@/db/queries/grading-reviews";
import { requireGradingAccess } from "@/server/access/grading-access";
import { apiRoute } from "@/server/http/route";

type Params = { gradingId: string };

/**
 * The review page's data: the pinned rubric's nodes, each leaf's verdict as the user may see it
 * (a grader: the assigned subtrees; blind: after committing), overrides and review marks per leaf,
 * and the effective root score. Explanations and judge responses come per leaf (`…/leaves/<key>`).
 */
export const GET = apiRoute<Params>({}, async ({ db, user, params }) => {
  const { grading, role, assignment } = await requireGradingAccess(db, user, params.gradingId, "view");
  const payload = await getReviewPayload(db, grading, { userId: user.id, role, assignment });
  return Response.json(payload, { headers: { "cache-control": "private, no-store" } });
});
