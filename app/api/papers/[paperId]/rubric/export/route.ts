import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { exportRubricJson } from "@/server/papers/export";
import { VARIANTS } from "@/lib/grading/variant";

type Params = { paperId: string };

const exportQuerySchema = z.object({
  force: z
    .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
    .optional()
    .transform((v) => v === "1" || v === "true"),
  variant: z.enum(VARIANTS, { error: "must be full or code-dev" }).default("full"),
  resourcesProvided: z
    .enum(["0", "1", "true", "false"], { error: "must be true or false" })
    .optional()
    .transform((v) => v === "1" || v === "true"),
});

/**
 * rubric.json exactly as PaperBench writes it (`?variant=code-dev` for the Code-Dev variant;
 * `?resourcesProvided=true` for PaperBench's resources-provided setting, its "Dataset and Model
 * Acquisition" leaves weighing 0); 409 with the rule breaks unless `?force=1`.
 */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ req, store, paper }) => {
  const { force, variant, resourcesProvided } = exportQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const json = await exportRubricJson(store, paper.id, { force, variant, resourcesProvided });
  return new Response(json, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${paper.id}-${variant === "code-dev" ? "code-dev-" : ""}${resourcesProvided ? "resources-provided-" : ""}rubric.json"`,
      "cache-control": "private, no-store",
    },
  });
});
