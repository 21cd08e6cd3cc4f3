import { z } from "zod";
import { restoreRubricVersion } from "@/db/queries/rubric-versions";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { apiRoute } from "@/server/http/route";
import { announceRubricRevision } from "@/server/live/rubric-feed";
import { AppError } from "@/lib/errors";

type Params = { paperId: string; versionId: string };

/** Makes the live tree equal to the version, as one operation: the answer carries its inverse for undo. */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ db, dbKind, paper, params, user }) => {
  const versionId = z.uuid("must be a version id").parse(params.versionId);
  const rubric = await getRubricByPaperId(db, paper.id);
  if (!rubric) throw new AppError("not_found", "The paper has no rubric");
  const result = await restoreRubricVersion(db, {
    paperId: paper.id,
    rubricId: rubric.id,
    versionId,
    userId: user.id,
    clientOpId: crypto.randomUUID(),
  });
  await announceRubricRevision(db, dbKind, paper.id, result.revision);
  return result;
});
