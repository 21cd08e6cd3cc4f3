import { z } from "zod";
import { parseJsonBody } from "@/server/http/body";
import { revisionParam } from "@/server/http/revision-param";
import { apiRoute } from "@/server/http/route";
import { restoreRubricRevision } from "@/server/rubrics/restore-rubric";

type Params = { paperId: string };

const bodySchema = z.object({ revision: revisionParam });

/**
 * Makes the live tree equal to the tree as of `{ revision }`, as one operation (the same path as
 * restoring a version): the answer carries its inverse for undo.
 */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ req, store, paper, user }) => {
  const { revision } = await parseJsonBody(req, bodySchema);
  return restoreRubricRevision(store, { paperId: paper.id, revision, userId: user.id });
});
