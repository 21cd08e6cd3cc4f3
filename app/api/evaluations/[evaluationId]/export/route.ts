import { z } from "zod";
import { exportFormatSchema } from "@/lib/evaluations/schemas";
import { exportEvaluation } from "@/server/evaluations/export-evaluation";
import { apiRoute } from "@/server/http/route";

type Params = { evaluationId: string };

const exportQuerySchema = z.object({ format: exportFormatSchema.default("json") });

/** The evaluation's results (staff): `json` per paper and overall in PaperBench's terms, `csv` one row per cell. */
export const GET = apiRoute<Params>({ staff: true }, async ({ req, store, params }) => {
  const { format } = exportQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const file = await exportEvaluation(store, params.evaluationId, format);
  return new Response(file.body, {
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.fileName}"`,
      "cache-control": "private, no-store",
    },
  });
});
