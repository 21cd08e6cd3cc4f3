import { createEvaluationSchema } from "@/lib/evaluations/schemas";
import { createEvaluation } from "@/server/evaluations/create-evaluation";
import { listEvaluationSummaries } from "@/server/evaluations/read-evaluation";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { jsonAnswer } from "@/server/http/json-answer";

/** Evaluations (staff), newest first, with their agent and how many submissions they hold. */
export const GET = apiRoute({ staff: true }, async ({ store }) => {
  return { evaluations: await listEvaluationSummaries(store) };
});

/** A new evaluation: `{name, agent, split, paperIds?, runs, variant?, policies?, aggregation?, resourcesProvided?, setup?, isHuman?}`. */
export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  const body = await parseJsonBody(req, createEvaluationSchema);
  return jsonAnswer({ evaluation: await createEvaluation(store, body, user.id) }, { status: 201 });
});
