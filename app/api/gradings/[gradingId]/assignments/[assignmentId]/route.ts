import { z } from "zod";
import { removeGradingAssignment } from "@/db/queries/grading-reviews";
import { requireGradingAccess } from "@/server/access/grading-access";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";

type Params = { gradingId: string; assignmentId: string };

/** Takes an assignment back (staff); the grader's review marks stay. */
export const DELETE = apiRoute<Params>({}, async ({ db, user, params }) => {
  const { grading, role } = await requireGradingAccess(db, user, params.gradingId, "view");
  if (role !== "staff") throw new AppError("forbidden", "Only staff assign gradings");
  const removed = z.uuid().safeParse(params.assignmentId).success && (await removeGradingAssignment(db, grading.id, params.assignmentId));
  if (!removed) throw new AppError("not_found", "No such assignment on this grading");
  return { removed: true };
});
