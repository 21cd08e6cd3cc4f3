import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { applyRubricOperation } from "@/server/rubrics/apply-rubric-operation";
import { RUBRIC_LIMITS } from "@/lib/rubric/limits";
import { operationRequestSchema } from "@/lib/rubric/operations";

type Params = { paperId: string };

/** Applies one rubric operation; answers the new revision and the operation that undoes it. */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, store, paper, user }) => {
  const request = await parseJsonBody(req, operationRequestSchema, RUBRIC_LIMITS.maxBytes);
  return applyRubricOperation(store, { paperId: paper.id, userId: user.id, request });
});
