import { createPaper, listPapersForUser } from "@/db/queries/papers";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { paperCreateSchema } from "@/lib/papers/schemas";

export const GET = apiRoute({}, async ({ db, user }) => ({ papers: await listPapersForUser(db, user) }));

export const POST = apiRoute({ staff: true }, async ({ req, db, user }) => {
  const input = await parseJsonBody(req, paperCreateSchema);
  const paper = await createPaper(db, input, user.id);
  return Response.json({ paper }, { status: 201 });
});
