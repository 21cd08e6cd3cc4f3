import "server-only";
import { and, eq, gt, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import { userSessions, users } from "../schema";

/**
 * The one rule of a live session, for a query that joins `users` on `user_sessions`: the row is this
 * session of this user, neither revoked nor expired, and the user is not disabled.
 */
export function liveSession(session: { userId: string; sessionId: string }): SQL {
  return and(
    eq(userSessions.id, session.sessionId),
    eq(userSessions.userId, session.userId),
    isNull(userSessions.revokedAt),
    gt(userSessions.expiresAt, sql`now()`),
    isNull(users.disabledAt),
  )!;
}

/** A new session of the user, valid until `expiresAt`: its id. */
export async function createUserSession(db: Executor, userId: string, expiresAt: Date): Promise<string> {
  const [row] = await db.insert(userSessions).values({ userId, expiresAt }).returning({ id: userSessions.id });
  return row.id;
}

/** Revokes one session; the user it belonged to, or null when it was unknown or already revoked. */
export async function revokeUserSession(db: Executor, sessionId: string): Promise<string | null> {
  const [row] = await db
    .update(userSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt)))
    .returning({ userId: userSessions.userId });
  return row?.userId ?? null;
}

/** Revokes every live session of the user (but `exceptSessionId`); how many were live. */
export async function revokeUserSessions(db: Executor, userId: string, exceptSessionId?: string): Promise<number> {
  const rows = await db
    .update(userSessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(userSessions.userId, userId),
        isNull(userSessions.revokedAt),
        exceptSessionId ? ne(userSessions.id, exceptSessionId) : undefined,
      ),
    )
    .returning({ id: userSessions.id });
  return rows.length;
}
