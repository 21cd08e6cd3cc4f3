import { z } from "zod";
import { revisionParam } from "@/server/http/revision-param";
import { apiRoute } from "@/server/http/route";
import { getRubricRowsAt } from "@/server/rubrics/read-rubric";

type Params = { paperId: string };

const querySchema = z.object({ revision: revisionParam });

/** The rubric as of `?revision=N` (rebuilt from the operation log): its rows with their keys, for diffs. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ req, store, paper }) => {
  const { revision } = querySchema.parse({ revision: req.nextUrl.searchParams.get("revision") ?? undefined });
  return getRubricRowsAt(store, paper.id, revision);
});
