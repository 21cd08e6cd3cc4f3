import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { addMember } from "@/server/papers/add-member";
import { listMembers } from "@/server/papers/read-papers";
import { memberAddSchema } from "@/lib/papers/schemas";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { paperId: string };

export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper }) => ({
  members: await listMembers(store, paper.id),
}));

export const POST = apiRoute<Params>({ paper: "manage" }, async ({ req, store, paper, user }) => {
  const input = await parseJsonBody(req, memberAddSchema);
  const member = await addMember(store, { paperId: paper.id, email: input.email, role: input.role, addedBy: user.id });
  return jsonAnswer({ member }, { status: 201 });
});
