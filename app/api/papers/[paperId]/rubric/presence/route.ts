import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { AppError } from "@/lib/errors";
import { updatePresence } from "@/server/live/presence";
import { presenceUpdateSchema } from "@/lib/live/presence-schemas";

type Params = { paperId: string };

/**
 * An open editor says which node it has selected and which it is editing; everyone following the
 * rubric hears it. The session must be following the rubric (its event stream open) as this user.
 */
export const POST = apiRoute<Params>({ paper: "view" }, async ({ req, store, paper, user }) => {
  const { session, selectedKey, editingKey } = await parseJsonBody(req, presenceUpdateSchema);
  const known = await updatePresence(store, paper.id, { sessionId: session, userId: user.id, selectedKey, editingKey });
  if (!known)
    throw new AppError(
      "conflict",
      "This editor is not following the rubric (its live connection is closed); it reconnects by itself",
    );
  return { ok: true };
});
