import { z } from "zod";
import { getRubricVersion } from "@/db/queries/rubric-versions";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";

type Params = { paperId: string; versionId: string };

/** A saved version with its rows (and their keys), for diffs. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper, params }) => {
  const versionId = z.uuid("must be a version id").parse(params.versionId);
  const rubric = await getRubricByPaperId(db, paper.id);
  if (!rubric) throw new AppError("not_found", "The paper has no rubric");
  return getRubricVersion(db, rubric.id, versionId);
});
