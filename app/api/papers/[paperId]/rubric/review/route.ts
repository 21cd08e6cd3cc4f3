import { z } from "zod";
import { changeRubricStatus, getRubricReview } from "@/db/queries/rubric-review";
import { requireRubricByPaperId } from "@/db/queries/rubrics";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { announceLive } from "@/server/live/rubric-feed";

type Params = { paperId: string };

const reviewActionSchema = z.object({
  action: z.enum(["request_review", "sign_off", "return_to_draft"], { error: "must be request_review, sign_off or return_to_draft" }),
  // The revision the person reviewed: a sign-off of a rubric that changed since is refused.
  revision: z.number().int().min(0),
});

/** The rubric's review status (draft, in review, signed off) and its history. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper }) => {
  const rubric = await requireRubricByPaperId(db, paper.id);
  return getRubricReview(db, rubric.id);
});

/**
 * Authors and staff request review, sign off a revision (saved as a named version), or return to
 * draft; everyone on the rubric hears of it.
 */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, db, dbKind, paper, user }) => {
  const { action, revision } = await parseJsonBody(req, reviewActionSchema);
  const rubric = await requireRubricByPaperId(db, paper.id);
  const review = await changeRubricStatus(db, { rubricId: rubric.id, action, revision, userId: user.id, userLabel: user.name ?? user.email });
  await announceLive(db, dbKind, paper.id, { type: "review" });
  return review;
});
