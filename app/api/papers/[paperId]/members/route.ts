import { addPaperMember, listPaperMembers } from "@/db/queries/papers";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { memberAddSchema } from "@/lib/papers/schemas";

type Params = { paperId: string };

export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper }) => ({
  members: await listPaperMembers(db, paper.id),
}));

export const POST = apiRoute<Params>({ paper: "manage" }, async ({ req, db, paper, user }) => {
  const input = await parseJsonBody(req, memberAddSchema);
  const member = await addPaperMember(db, { paperId: paper.id, email: input.email, role: input.role, addedBy: user.id });
  return Response.json({ member }, { status: 201 });
});
