import { suggestAddendumSchema } from "@/lib/judge/lab/schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { suggestAddendum } from "@/server/judge/lab/suggest-addendum";

/** Suggests judge-addendum text from the paper's overrides through a judge configuration (stores nothing). */
export const POST = apiRoute<{ paperId: string }>({ staff: true }, async ({ req, params, store }) => {
  const body = await parseJsonBody(req, suggestAddendumSchema);
  return suggestAddendum(store, params.paperId, body);
});
