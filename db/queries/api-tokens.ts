import "server-only";
import { and, desc, eq, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import {
  apiTokens,
  paperMembers,
  papers,
  users,
  type ApiToken,
  type Paper,
  type PaperRole,
  type User,
} from "../schema";

export type ApiTokenListItem = Pick<ApiToken, "id" | "name" | "createdAt" | "lastUsedAt" | "revokedAt">;

export async function insertApiToken(
  db: Executor,
  input: { userId: string; name: string; tokenHash: string },
): Promise<ApiTokenListItem> {
  const [row] = await db.insert(apiTokens).values(input).returning(listColumns);
  return row;
}

const listColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
  revokedAt: apiTokens.revokedAt,
};

/** A user's tokens, newest first, revoked ones included (the list says when). */
export async function listApiTokensByUserId(db: Executor, userId: string): Promise<ApiTokenListItem[]> {
  return db.select(listColumns).from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt));
}

/** Revokes one of the user's tokens; false when the user has no such live token. */
export async function revokeApiToken(db: Executor, input: { tokenId: string; userId: string }): Promise<boolean> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiTokens.id, input.tokenId), eq(apiTokens.userId, input.userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/** Revokes every live token of the user (a password change, "sign out everywhere", disabling); how many. */
export async function revokeApiTokensOfUser(db: Executor, userId: string): Promise<number> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length;
}

/** The one rule of a usable token, for a query joining `users` on `api_tokens`: this hash, not revoked, its user not disabled. */
function liveApiToken(tokenHash: string): SQL {
  return and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt), isNull(users.disabledAt))!;
}

/**
 * A token's user and (with `paperId`) the paper with the user's membership, in one round trip, as
 * `getUserWithPaperAccess` answers for a session; with the token's id and last use. Null unless
 * the token is live.
 */
export async function getUserWithPaperAccessByApiToken(
  db: Executor,
  tokenHash: string,
  paperId: string | undefined,
): Promise<{
  user: User;
  paper: Paper | null;
  membership: PaperRole | null;
  token: { id: string; lastUsedAt: Date | null };
} | null> {
  const token = { id: apiTokens.id, lastUsedAt: apiTokens.lastUsedAt };
  if (!paperId) {
    const [row] = await db
      .select({ user: users, token })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(liveApiToken(tokenHash))
      .limit(1);
    return row ? { ...row, paper: null, membership: null } : null;
  }
  const [row] = await db
    .select({ user: users, paper: papers, membership: paperMembers.role, token })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .leftJoin(papers, eq(papers.id, paperId))
    .leftJoin(paperMembers, and(eq(paperMembers.paperId, paperId), eq(paperMembers.userId, users.id)))
    .where(liveApiToken(tokenHash))
    .limit(1);
  return row ?? null;
}

/** Marks a token used now, unless it was marked less than `withinS` seconds ago (one write a minute, not one per request). */
export async function touchApiToken(db: Executor, tokenId: string, withinS: number): Promise<void> {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`now() - make_interval(secs => ${withinS})`)),
      ),
    );
}
