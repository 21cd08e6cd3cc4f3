import { z } from "zod";
import { getRubricRowsAtRevision } from "@/db/queries/rubric-at-revision";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { revisionParam } from "@/server/http/revision-param";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";

type Params = { paperId: string };

const querySchema = z.object({ revision: revisionParam });

/** The rubric as of `?revision=N` (rebuilt from the operation log): its rows with their keys, for diffs. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ req, db, paper }) => {
  const { revision } = querySchema.parse({ revision: req.nextUrl.searchParams.get("revision") ?? undefined });
  const rubric = await getRubricByPaperId(db, paper.id);
  if (!rubric) throw new AppError("not_found", "The paper has no rubric");
  const nodes = await getRubricRowsAtRevision(db, rubric.id, revision);
  return { revision, currentRevision: rubric.revision, nodes };
});
