import { parseJsonBody } from "@/server/http/body";
import { apiRoute, requireSession } from "@/server/http/route";
import { createApiToken, listApiTokens } from "@/server/auth/api-tokens";
import { apiTokenCreateSchema } from "@/lib/users/schemas";
import { jsonAnswer } from "@/server/http/json-answer";

/** The caller's personal API tokens (never the tokens themselves: only their names and use). */
export const GET = apiRoute({}, async ({ store, user }) => ({ tokens: await listApiTokens(store, user.id) }));

/**
 * A new personal API token (`{ name }`), answered once as `{ token, apiToken }`. Made from a
 * signed-in browser only: a leaked token cannot mint others that outlive its revocation.
 */
export const POST = apiRoute({}, async ({ req, store, user, sessionId }) => {
  requireSession(sessionId);
  const { name } = await parseJsonBody(req, apiTokenCreateSchema);
  return jsonAnswer(await createApiToken(store, { userId: user.id, name }), { status: 201 });
});
