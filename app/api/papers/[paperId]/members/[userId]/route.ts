import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { removeMember } from "@/server/papers/remove-member";

type Params = { paperId: string; userId: string };

export const DELETE = apiRoute<Params>({ paper: "manage" }, async ({ store, paper, params }) => {
  const userId = z.uuid("must be a user id").parse(params.userId);
  await removeMember(store, paper.id, userId);
  return { removed: userId };
});
