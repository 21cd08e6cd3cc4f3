import "server-only";
import type { Store } from "@/db/client";
import { setUserPasswordHash } from "@/db/queries/users";
import { passwordProblem } from "@/lib/auth/password-rules";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/server/auth/password";
import { findUserByEmail } from "./find-user";
import { endAllSessions } from "@/server/auth/sessions";
import { signInWithPassword } from "./sign-in";

/**
 * Sets a user's password and ends their other sessions (all of them when `keepSessionId` is not
 * given, as from the CLI) and every API token of theirs: whoever signed in with the old password,
 * or made a token with it, is signed out at once. The new
 * password must pass the rules every new password does (400 otherwise).
 */
export async function changePassword(
  store: Store,
  input: { email: string; password: string; keepSessionId?: string },
): Promise<{ endedSessions: number; endedTokens: number }> {
  const problem = passwordProblem(input.password);
  if (problem)
    throw new AppError("bad_request", `the password ${problem}`, [
      { path: "password", message: `the password ${problem}` },
    ]);
  const user = await findUserByEmail(store, input.email);
  await setUserPasswordHash(store.db, user.id, await hashPassword(input.password));
  const ended = await endAllSessions(store, user.id, input.keepSessionId);
  return { endedSessions: ended.sessions, endedTokens: ended.tokens };
}

/**
 * A signed-in user changes their own password: the current one must be right (tried like a
 * sign-in, so throttled like one), and every other session of theirs ends; this one goes on.
 */
export async function changeOwnPassword(
  store: Store,
  input: { email: string; sessionId: string; currentPassword: string; newPassword: string; address: string | null },
): Promise<{ endedSessions: number; endedTokens: number }> {
  const check = await signInWithPassword(store, {
    email: input.email,
    password: input.currentPassword,
    address: input.address,
  });
  if (!check.ok) {
    const message = check.retryAfterSeconds
      ? `Too many wrong passwords: try again in ${check.retryAfterSeconds} s`
      : "currentPassword: is not your current password";
    throw new AppError("bad_request", message, [{ path: "currentPassword", message }]);
  }
  return changePassword(store, { email: input.email, password: input.newPassword, keepSessionId: input.sessionId });
}
