import { apiRoute } from "@/server/http/route";
import { liveRowsAnswer } from "@/server/rubrics/live-rows-answer";
import { canEditRubric } from "@/lib/auth/access";

type Params = { paperId: string };

/** The live rubric as rows with their internal keys, and its lint dismissals: what the editor works on. */
export const GET = apiRoute<Params>({ paper: "view" }, ({ store, paper, role }) =>
  liveRowsAnswer(store, paper.id, { canEdit: canEditRubric(role) }),
);
