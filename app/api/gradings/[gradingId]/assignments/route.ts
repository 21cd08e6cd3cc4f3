import { parseJsonBody } from "@/server/http/body";
import { requireGradingAccess } from "@/server/gradings/grading-access";
import { apiRoute } from "@/server/http/route";
import { assignGrading, listGradingAssignments } from "@/server/reviews/assignments";
import { AppError } from "@/lib/errors";
import { assignmentSchema } from "@/lib/review/schemas";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { gradingId: string };

/** The graders of a grading with their progress and time spent (staff). */
export const GET = apiRoute<Params>({}, async ({ store, user, params }) => {
  const { grading, role } = await requireGradingAccess(store, user, params.gradingId, "view");
  if (role !== "staff") throw new AppError("forbidden", "Only staff see who reviews a grading");
  return { assignments: await listGradingAssignments(store, grading) };
});

/**
 * Assigns the grading, or subtrees of it (`nodeKeys`), to a grader of its paper (by email), blind
 * or not (staff). Assigning someone again replaces their assignment.
 */
export const POST = apiRoute<Params>({}, async ({ req, store, user, params }) => {
  const { grading, role } = await requireGradingAccess(store, user, params.gradingId, "view");
  if (role !== "staff") throw new AppError("forbidden", "Only staff assign gradings");
  const body = await parseJsonBody(req, assignmentSchema, 1024 * 1024);
  const assignment = await assignGrading(store, { grading, ...body, assignedBy: user.id });
  return jsonAnswer({ assignment }, { status: 201 });
});
