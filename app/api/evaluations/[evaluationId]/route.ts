import { readEvaluationSummary } from "@/server/evaluations/read-evaluation";
import { apiRoute } from "@/server/http/route";

type Params = { evaluationId: string };

/** The evaluation (staff): its cells, per-run scores, mean ± se, excluded cells and the policy that produced them. */
export const GET = apiRoute<Params>({ staff: true }, async ({ store, params }) => {
  return await readEvaluationSummary(store, params.evaluationId);
});
