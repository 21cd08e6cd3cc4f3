import { z } from "zod";
import { flagSchema } from "@/lib/submissions/schemas";
import { bulkUploadRequest } from "@/server/evaluations/bulk-upload/bulk-upload-request";
import { apiRoute } from "@/server/http/route";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { evaluationId: string };

const querySchema = z.object({ replace: flagSchema });

/**
 * Staff: fill the evaluation by bulk upload, one archive as the raw body (PaperBench run groups
 * without grades, `<paper>/<run>/submission/`, or a `manifest.csv` at its root); answers the
 * submission created per cell. Every cell is checked first: a refusal writes nothing.
 * `?replace=1` sends runs already uploaded again (the evaluation page's re-upload of a cell).
 */
export const POST = apiRoute<Params>({ staff: true }, async ({ req, store, user, params }) => {
  const { replace } = querySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
  return jsonAnswer(await bulkUploadRequest(store, req, params.evaluationId, user.id, { replace }), { status: 201 });
});
