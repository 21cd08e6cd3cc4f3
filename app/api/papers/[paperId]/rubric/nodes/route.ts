import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { apiRoute } from "@/server/http/route";

type Params = { paperId: string };

/** The live rubric as rows with their internal keys: what the editor works on. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper, role }) => {
  const rubric = await getRubricByPaperId(db, paper.id);
  return {
    rubricId: rubric?.id ?? null,
    revision: rubric?.revision ?? 0,
    canEdit: role === "staff" || role === "author",
    nodes: rubric ? await getLiveNodeRows(db, rubric.id) : [],
  };
});
