import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { getNodeHistoryOfPaper } from "@/server/rubrics/read-rubric";

type Params = { paperId: string; key: string };

/** Who changed this node, when and how (from the operation log), newest first. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper, params }) => {
  const key = z.uuid("must be a node key").parse(params.key);
  return { history: await getNodeHistoryOfPaper(store, paper.id, key) };
});
