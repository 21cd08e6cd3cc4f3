import { z } from "zod";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { changeRubricStatus } from "@/server/rubrics/change-rubric-status";
import { getReview } from "@/server/rubrics/read-rubric";

type Params = { paperId: string };

const reviewActionSchema = z.object({
  action: z.enum(["request_review", "sign_off", "return_to_draft"], {
    error: "must be request_review, sign_off or return_to_draft",
  }),
  // The revision the person reviewed: a sign-off of a rubric that changed since is refused.
  revision: z.number().int().min(0),
});

/** The rubric's review status (draft, in review, signed off) and its history. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper }) => getReview(store, paper.id));

/**
 * Authors and staff request review, sign off a revision (saved as a named version), or return to
 * draft; everyone on the rubric hears of it.
 */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, store, paper, user }) => {
  const { action, revision } = await parseJsonBody(req, reviewActionSchema);
  return changeRubricStatus(store, {
    paperId: paper.id,
    action,
    revision,
    userId: user.id,
    userLabel: user.name ?? user.email,
  });
});
