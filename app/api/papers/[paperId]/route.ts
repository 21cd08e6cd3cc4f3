import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { editPaper } from "@/server/papers/edit-paper";
import { paperUpdateSchema } from "@/lib/papers/schemas";

type Params = { paperId: string };

export const GET = apiRoute<Params>({ paper: "view" }, async ({ paper, role }) => ({ paper, role }));

export const PATCH = apiRoute<Params>({ paper: "manage" }, async ({ req, store, paper }) => {
  const patch = await parseJsonBody(req, paperUpdateSchema);
  return { paper: await editPaper(store.db, paper.id, patch) };
});
