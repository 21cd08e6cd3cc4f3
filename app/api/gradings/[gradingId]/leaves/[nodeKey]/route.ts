import { z } from "zod";
import { requireGradingAccess } from "@/server/gradings/grading-access";
import { apiRoute } from "@/server/http/route";
import { getReviewLeafDetail } from "@/server/reviews/review-payload";
import { AppError } from "@/lib/errors";

type Params = { gradingId: string; nodeKey: string };

/**
 * One leaf of a grading for the leaf panel: the verdict with the judge's explanation and full
 * response, its overrides and review marks; nothing of it while it is hidden from the user.
 */
export const GET = apiRoute<Params>({}, async ({ store, user, params }) => {
  const access = await requireGradingAccess(store, user, params.gradingId, "view");
  if (!z.uuid().safeParse(params.nodeKey).success)
    throw new AppError("not_found", "No graded leaf with this key in the grading");
  return getReviewLeafDetail(store, access.grading.id, params.nodeKey, await access.visibility());
});
