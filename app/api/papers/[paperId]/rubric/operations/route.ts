import { applyRubricOperation } from "@/db/queries/rubric-operations";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { announceRubricRevision } from "@/server/live/rubric-feed";
import { RUBRIC_LIMITS } from "@/lib/rubric/limits";
import { operationRequestSchema } from "@/lib/rubric/operations";

type Params = { paperId: string };

/** Applies one rubric operation; answers the new revision and the operation that undoes it. */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, db, dbKind, paper, user }) => {
  const request = await parseJsonBody(req, operationRequestSchema, RUBRIC_LIMITS.maxBytes);
  const result = await applyRubricOperation(db, { paperId: paper.id, userId: user.id, request });
  await announceRubricRevision(db, dbKind, paper.id, result.revision);
  return result;
});
