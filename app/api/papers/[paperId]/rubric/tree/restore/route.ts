import { z } from "zod";
import { restoreRubricRevision } from "@/db/queries/rubric-restore";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { parseJsonBody } from "@/server/http/body";
import { revisionParam } from "@/server/http/revision-param";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";
import { announceRubricRevision } from "@/server/live/rubric-feed";

type Params = { paperId: string };

const bodySchema = z.object({ revision: revisionParam });

/**
 * Makes the live tree equal to the tree as of `{ revision }`, as one operation (the same path as
 * restoring a version): the answer carries its inverse for undo.
 */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, db, dbKind, paper, user }) => {
  const { revision } = await parseJsonBody(req, bodySchema);
  const rubric = await getRubricByPaperId(db, paper.id);
  if (!rubric) throw new AppError("not_found", "The paper has no rubric");
  const result = await restoreRubricRevision(db, {
    paperId: paper.id,
    rubricId: rubric.id,
    revision,
    userId: user.id,
    clientOpId: crypto.randomUUID(),
  });
  await announceRubricRevision(db, dbKind, paper.id, result.revision);
  return result;
});
