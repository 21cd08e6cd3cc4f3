import { z } from "zod";
import { requireFullVisibility, requireGradingAccess } from "@/server/gradings/grading-access";
import { exportGrading } from "@/server/gradings/export-grading";
import { apiRoute } from "@/server/http/route";

type Params = { gradingId: string };

const exportQuerySchema = z.object({
  format: z.enum(["json", "judge_output", "csv"], { error: "must be json, judge_output or csv" }).default("json"),
});

/**
 * The grading with its effective scores (latest overrides applied): `json` a PaperBench graded
 * tree, `judge_output` a `grader_output.json`, `csv` one row per leaf.
 */
export const GET = apiRoute<Params>({}, async ({ req, store, user, params }) => {
  const { format } = exportQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const access = await requireGradingAccess(store, user, params.gradingId, "view");
  const { grading } = access;
  await requireFullVisibility(access, "export it");
  const file = await exportGrading(store, grading.id, format);
  return new Response(file.body, {
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.fileName}"`,
      "cache-control": "private, no-store",
    },
  });
});
