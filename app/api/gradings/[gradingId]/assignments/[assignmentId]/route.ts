import { z } from "zod";
import { requireGradingAccess } from "@/server/gradings/grading-access";
import { apiRoute } from "@/server/http/route";
import { removeGradingAssignment } from "@/server/reviews/assignments";
import { AppError } from "@/lib/errors";

type Params = { gradingId: string; assignmentId: string };

/** Takes an assignment back (staff); the grader's review marks stay. */
export const DELETE = apiRoute<Params>({}, async ({ store, user, params }) => {
  const { grading, role } = await requireGradingAccess(store, user, params.gradingId, "view");
  if (role !== "staff") throw new AppError("forbidden", "Only staff assign gradings");
  const removed =
    z.uuid().safeParse(params.assignmentId).success &&
    (await removeGradingAssignment(store, grading.id, params.assignmentId));
  if (!removed) throw new AppError("not_found", "No such assignment on this grading");
  return { removed: true };
});
