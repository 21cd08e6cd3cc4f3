import "server-only";
import type { Store } from "@/db/client";
import { createUserSession, revokeUserSession, revokeUserSessions } from "@/db/queries/user-sessions";
import { getUserWithPaperAccess, type SessionRef } from "@/db/queries/papers";
import { getUserById } from "@/db/queries/users";
import { revokeApiTokensOfUser } from "@/db/queries/api-tokens";
import { AppError } from "@/lib/errors";
import { announceAccessChange } from "@/server/live/rubric-feed";
import { isUuid } from "@/lib/uuid";

/**
 * Sessions are rows of `user_sessions`, not just signed cookies. The cookie (a JWT) carries the
 * row's id, and every request reads the row in the same query as the user
 * (`getUserWithPaperAccess`), so:
 * - sign-out ends exactly the session it came from, and the others keep working;
 * - a password change, disabling a user or "sign out everywhere" revokes rows (and the user's API
 *   tokens), which takes effect
 *   on the next request, on every instance, with no list of banned tokens to share;
 * - the cost is a primary-key join in a read every request makes anyway (a per-user session
 *   version would cost the same read, but could only end all of a user's sessions at once).
 *
 * A session lasts at most 30 days from sign-in, the session cookie's maximum age (next-auth's
 * default; cookies are not re-issued by pages, so the two end together).
 */
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** A session for a user who just signed in: its id goes into the cookie. Refused for a disabled user. */
export async function startSession(store: Store, userId: string): Promise<string> {
  const user = await getUserById(store.db, userId);
  if (!user) throw new AppError("unauthorized", "This account does not exist");
  if (user.disabledAt) throw new AppError("forbidden", "This account is disabled");
  return createUserSession(store.db, userId, new Date(Date.now() + SESSION_MAX_AGE_MS));
}

/** The session a decoded cookie names: both ids must be UUIDs (a cookie from before sessions had rows names none). */
export function sessionRefOf(userId: unknown, sessionId: unknown): SessionRef | null {
  if (typeof userId !== "string" || typeof sessionId !== "string" || !isUuid(userId) || !isUuid(sessionId)) return null;
  return { userId, sessionId };
}

/** Whether the session is live: not signed out, revoked or expired, its user not disabled. */
export async function isSessionLive(store: Store, session: SessionRef | null): Promise<boolean> {
  return session !== null && (await getUserWithPaperAccess(store.db, session, undefined)) !== null;
}

/** Sign-out: the session ends, and its open streams with it. */
export async function endSession(store: Store, sessionId: string): Promise<void> {
  const userId = await revokeUserSession(store.db, sessionId);
  if (userId) await announceAccessChange(store, userId);
}

/**
 * Ends every session of the user (but `keepSessionId`, the caller's own when they change their
 * password) and every personal API token of theirs, in one transaction; their open streams end
 * too. A token is a sign-in that never expires: account recovery (a new password, "sign out
 * everywhere", disabling) that left it working would recover nothing from whoever holds it.
 */
export async function endAllSessions(
  store: Store,
  userId: string,
  keepSessionId?: string,
): Promise<{ sessions: number; tokens: number }> {
  const ended = await store.db.transaction(async (tx) => ({
    sessions: await revokeUserSessions(tx, userId, keepSessionId),
    tokens: await revokeApiTokensOfUser(tx, userId),
  }));
  await announceAccessChange(store, userId);
  return ended;
}

/** "Sign out everywhere" (the user, or staff for them): every session and API token ends; 404 when there is no such user. */
export async function signOutEverywhere(store: Store, userId: string): Promise<{ ended: number; endedTokens: number }> {
  if (!(await getUserById(store.db, userId))) throw new AppError("not_found", `No user with id "${userId}"`);
  const { sessions, tokens } = await endAllSessions(store, userId);
  return { ended: sessions, endedTokens: tokens };
}
