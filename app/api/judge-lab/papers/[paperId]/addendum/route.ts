import { acceptAddendumSchema } from "@/lib/judge/lab/schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { acceptAddendum } from "@/server/judge/lab/accept-addendum";

/** Accepts edited addendum text: a new version of the paper's judge addendum (the one it replaces is kept). */
export const POST = apiRoute<{ paperId: string }>({ staff: true }, async ({ req, params, store, user }) => {
  const body = await parseJsonBody(req, acceptAddendumSchema);
  return acceptAddendum(store, params.paperId, body, user.id);
});
