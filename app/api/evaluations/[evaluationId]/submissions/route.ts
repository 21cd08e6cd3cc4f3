import { bulkUploadRequest } from "@/server/evaluations/bulk-upload/bulk-upload-request";
import { apiRoute } from "@/server/http/route";

type Params = { evaluationId: string };

/**
 * Staff: fill the evaluation by bulk upload, one archive as the raw body (PaperBench run groups
 * without grades, `<paper>/<run>/submission/`, or a `manifest.csv` at its root); answers the
 * submission created per cell. Every cell is checked first: a refusal writes nothing.
 */
export const POST = apiRoute<Params>({ staff: true }, async ({ req, store, user, params }) => {
  return Response.json(await bulkUploadRequest(store, req, params.evaluationId, user.id), { status: 201 });
});
