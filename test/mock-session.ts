/**
 * For route tests that stand in for the session cookie (vi.mock of `@/server/auth/session`): a live
 * session of the user (a `user_sessions` row, as a sign-in makes), started on first use in the
 * database the routes' getDb() answers.
 */
import type { DbHandle } from "@/db/client";
import type { SessionRef } from "@/db/queries/papers";
import { startSession } from "@/server/auth/sessions";

const started = new Map<string, string>();

export async function liveSessionOf(userId: string | null | undefined): Promise<SessionRef | null> {
  if (!userId) return null;
  const handle = await (globalThis as { __rubricStudioDb?: Promise<DbHandle> }).__rubricStudioDb;
  if (!handle) throw new Error("set globalThis.__rubricStudioDb to the test database first");
  const key = `${handle.location}:${userId}`;
  let sessionId = started.get(key);
  if (!sessionId) started.set(key, (sessionId = await startSession(handle, userId)));
  return { userId, sessionId };
}
