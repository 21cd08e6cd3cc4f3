import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { addPaper } from "@/server/papers/add-paper";
import { listPapers } from "@/server/papers/read-papers";
import { paperCreateSchema } from "@/lib/papers/schemas";
import { jsonAnswer } from "@/server/http/json-answer";

export const GET = apiRoute({}, async ({ store, user }) => ({ papers: await listPapers(store, user) }));

export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  const input = await parseJsonBody(req, paperCreateSchema);
  const paper = await addPaper(store.db, input, user.id);
  return jsonAnswer({ paper }, { status: 201 });
});
