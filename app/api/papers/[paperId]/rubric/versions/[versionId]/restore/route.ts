import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { restoreRubricVersion } from "@/server/rubrics/restore-rubric";

type Params = { paperId: string; versionId: string };

/** Makes the live tree equal to the version, as one operation: the answer carries its inverse for undo. */
export const POST = apiRoute<Params>({ paper: "edit-rubric" }, async ({ store, paper, params, user }) => {
  const versionId = z.uuid("must be a version id").parse(params.versionId);
  return restoreRubricVersion(store, { paperId: paper.id, versionId, userId: user.id });
});
