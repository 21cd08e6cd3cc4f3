import "server-only";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { userSessions } from "../schema";

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
