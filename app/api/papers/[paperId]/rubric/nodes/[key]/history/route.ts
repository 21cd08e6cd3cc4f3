import { z } from "zod";
import { getNodeHistory } from "@/db/queries/rubric-history";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { apiRoute } from "@/server/http/route";

type Params = { paperId: string; key: string };

/** Who changed this node, when and how (from the operation log), newest first. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper, params }) => {
  const key = z.uuid("must be a node key").parse(params.key);
  const rubric = await getRubricByPaperId(db, paper.id);
  return { history: rubric ? await getNodeHistory(db, rubric.id, key) : [] };
});
