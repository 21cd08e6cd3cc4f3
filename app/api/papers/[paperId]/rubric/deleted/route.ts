import { apiRoute } from "@/server/http/route";
import { listDeleted } from "@/server/rubrics/read-rubric";

type Params = { paperId: string };

/** The deleted subtrees that can be restored, newest first, with who deleted them and when. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper }) => ({
  deleted: await listDeleted(store, paper.id),
}));
