import { addGradingOverride, listGradingOverrides } from "@/db/queries/gradings";
import { parseJsonBody } from "@/server/http/body";
import { requireGradingAccess } from "@/server/access/grading-access";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";
import { hiddenReason } from "@/lib/review/visibility";
import { gradingOverrideSchema } from "@/lib/submissions/schemas";

type Params = { gradingId: string };

/** The override history of a grading, oldest first. */
export const GET = apiRoute<Params>({}, async ({ db, user, params }) => {
  const access = await requireGradingAccess(db, user, params.gradingId, "view");
  const visibility = await access.visibility();
  const overrides = await listGradingOverrides(db, access.grading.id);
  // A grader sees the history of the leaves whose verdict they may see.
  return { overrides: overrides.filter((o) => hiddenReason(o.nodeKey, visibility) === null) };
});

/** Appends an override of one leaf's score (staff and graders of the paper); returns the new root score. */
export const POST = apiRoute<Params>({}, async ({ req, db, user, params }) => {
  const access = await requireGradingAccess(db, user, params.gradingId, "review");
  const { grading } = access;
  const body = await parseJsonBody(req, gradingOverrideSchema, 64 * 1024);
  // The answer carries the old score: a grader overrides only leaves whose verdict they may see
  // (a blind leaf is scored through POST …/reviews first).
  const hidden = hiddenReason(body.nodeKey, await access.visibility());
  if (hidden === "scope") throw new AppError("forbidden", "This leaf is not in the part of the grading assigned to you");
  if (hidden === "blind") throw new AppError("forbidden", "Commit your own score on this leaf first (blind review)");
  const result = await addGradingOverride(db, { gradingId: grading.id, userId: user.id, ...body });
  return Response.json(result, { status: 201 });
});
