import { retryCellsSchema } from "@/lib/evaluations/matrix";
import { retryEvaluationCells } from "@/server/evaluations/pipeline/retry-cells";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";

type Params = { evaluationId: string };

/** Retry failed cells (staff): `{cells: [{paperId, run}]}` or `{allFailed: true}` → `{retried}`. */
export const POST = apiRoute<Params>({ staff: true }, async ({ req, store, params, user }) => {
  const body = await parseJsonBody(req, retryCellsSchema);
  return await retryEvaluationCells(store, params.evaluationId, body, user.id);
});
