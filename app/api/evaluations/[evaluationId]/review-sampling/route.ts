import { reviewSamplingSchema } from "@/lib/evaluations/schemas";
import { sampleEvaluationForReview, setReviewSampling } from "@/server/evaluations/review-sampling";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";

type Params = { evaluationId: string };

/** Human review sampling (staff): `{sampleSize: number | null, graders: [email, …]}`, leaves per grading and who reviews them in turn. */
export const PUT = apiRoute<Params>({ staff: true }, async ({ req, store, params }) => {
  const body = await parseJsonBody(req, reviewSamplingSchema);
  return await setReviewSampling(store, params.evaluationId, body);
});

/** "Sample for review" (staff): draws the sample of every graded cell not sampled yet and assigns it, blind, to the graders in turn. */
export const POST = apiRoute<Params>({ staff: true }, async ({ store, params, user }) => {
  return await sampleEvaluationForReview(store, params.evaluationId, user.id);
});
