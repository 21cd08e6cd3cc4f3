import { apiRoute } from "@/server/http/route";
import { readEvaluationMatrix } from "@/server/evaluations/pipeline/read-matrix";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { evaluationId: string };

/** The evaluation page's matrix (staff): `EvaluationMatrix` of `lib/evaluations/matrix.ts`. */
export const GET = apiRoute<Params>({ staff: true }, async ({ store, params }) => {
  return jsonAnswer(await readEvaluationMatrix(store, params.evaluationId), {
    headers: { "cache-control": "private, no-store" },
  });
});
