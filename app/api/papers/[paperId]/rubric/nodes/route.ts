import { apiRoute } from "@/server/http/route";
import { getLiveRubricRows } from "@/server/rubrics/read-rubric";
import { canEditRubric } from "@/lib/auth/access";

type Params = { paperId: string };

/** The live rubric as rows with their internal keys, and its lint dismissals: what the editor works on. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper, role }) => {
  const { rubricId, revision, nodes, dismissals } = await getLiveRubricRows(store, paper.id);
  return { rubricId, revision, canEdit: canEditRubric(role), nodes, dismissals };
});
