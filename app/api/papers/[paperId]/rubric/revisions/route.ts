import { z } from "zod";
import { revisionParam } from "@/server/http/revision-param";
import { apiRoute } from "@/server/http/route";
import { listRevisions } from "@/server/rubrics/read-rubric";

type Params = { paperId: string };

const querySchema = z.object({
  before: revisionParam.optional(),
  limit: z.coerce.number({ error: "must be a number" }).int().min(1).max(200).default(50),
});

/** The operation log, newest first, one line per revision (`?before=N` pages back, `?limit=` up to 200). */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ req, store, paper }) => {
  const params = req.nextUrl.searchParams;
  const query = querySchema.parse({
    before: params.get("before") ?? undefined,
    limit: params.get("limit") ?? undefined,
  });
  return listRevisions(store, paper.id, query);
});
