import { z } from "zod";
import { removePaperMember } from "@/db/queries/papers";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";

type Params = { paperId: string; userId: string };

export const DELETE = apiRoute<Params>({ paper: "manage" }, async ({ db, paper, params }) => {
  const userId = z.uuid("must be a user id").parse(params.userId);
  if (!(await removePaperMember(db, paper.id, userId))) {
    throw new AppError("not_found", "That user is not a member of this paper");
  }
  return { removed: userId };
});
