import { updatePaper } from "@/db/queries/papers";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { paperUpdateSchema } from "@/lib/papers/schemas";

type Params = { paperId: string };

export const GET = apiRoute<Params>({ paper: "view" }, async ({ paper, role }) => ({ paper, role }));

export const PATCH = apiRoute<Params>({ paper: "manage" }, async ({ req, db, paper }) => {
  const patch = await parseJsonBody(req, paperUpdateSchema);
  return { paper: await updatePaper(db, paper.id, patch) };
});
