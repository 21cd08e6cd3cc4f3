import { apiRoute, requireSession } from "@/server/http/route";
import { signOutEverywhere } from "@/server/auth/sessions";

/**
 * Signs the caller out everywhere, this session included (a lost laptop, a shared computer), and
 * revokes every API token of theirs. A browser session only: a token must not end the sessions
 * of the person it was taken from.
 */
export const DELETE = apiRoute({}, async ({ store, user, sessionId }) => {
  requireSession(sessionId);
  return signOutEverywhere(store, user.id);
});
