import { listDeletedSubtrees } from "@/db/queries/rubric-deleted";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { apiRoute } from "@/server/http/route";

type Params = { paperId: string };

/** The deleted subtrees that can be restored, newest first, with who deleted them and when. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper }) => {
  const rubric = await getRubricByPaperId(db, paper.id);
  return { deleted: rubric ? await listDeletedSubtrees(db, rubric.id) : [] };
});
