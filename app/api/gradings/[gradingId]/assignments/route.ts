import { assignGrading, listGradingAssignments } from "@/db/queries/grading-reviews";
import { parseJsonBody } from "@/server/http/body";
import { requireGradingAccess } from "@/server/access/grading-access";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";
import { assignmentSchema } from "@/lib/review/schemas";

type Params = { gradingId: string };

/** The graders of a grading with their progress and time spent (staff). */
export const GET = apiRoute<Params>({}, async ({ db, user, params }) => {
  const { grading, role } = await requireGradingAccess(db, user, params.gradingId, "view");
  if (role !== "staff") throw new AppError("forbidden", "Only staff see who reviews a grading");
  return { assignments: await listGradingAssignments(db, grading) };
});

/**
 * Assigns the grading, or subtrees of it (`nodeKeys`), to a grader of its paper (by email), blind
 * or not (staff). Assigning someone again replaces their assignment.
 */
export const POST = apiRoute<Params>({}, async ({ req, db, user, params }) => {
  const { grading, role } = await requireGradingAccess(db, user, params.gradingId, "view");
  if (role !== "staff") throw new AppError("forbidden", "Only staff assign gradings");
  const body = await parseJsonBody(req, assignmentSchema, 1024 * 1024);
  const assignment = await assignGrading(db, { grading, ...body, assignedBy: user.id });
  return Response.json({ assignment }, { status: 201 });
});
