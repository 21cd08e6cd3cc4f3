import "server-only";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { RunnerCapabilities } from "@/lib/runner/protocol";
import type { Executor } from "../client";
import { runnerTokens, runners, users, type Runner, type RunnerToken } from "../schema";

export async function insertRunnerToken(
  db: Executor,
  input: { name: string; tokenHash: string; createdBy: string | null; embedded?: boolean },
): Promise<RunnerToken> {
  const [row] = await db.insert(runnerTokens).values(input).returning();
  return row;
}

/** The live (not revoked) token with this hash; its last use is noted at most once a minute. */
export async function getLiveRunnerTokenByHash(db: Executor, tokenHash: string): Promise<RunnerToken | null> {
  const [row] = await db
    .select()
    .from(runnerTokens)
    .where(and(eq(runnerTokens.tokenHash, tokenHash), isNull(runnerTokens.revokedAt)))
    .limit(1);
  if (row && (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000)) {
    await db
      .update(runnerTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(runnerTokens.id, row.id));
  }
  return row ?? null;
}

export async function isRunnerTokenLive(db: Executor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: runnerTokens.id })
    .from(runnerTokens)
    .where(and(eq(runnerTokens.id, id), isNull(runnerTokens.revokedAt)))
    .limit(1);
  return row !== undefined;
}

export interface RunnerTokenListItem {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdByName: string | null;
  embedded: boolean;
}

export async function listRunnerTokens(db: Executor): Promise<RunnerTokenListItem[]> {
  return db
    .select({
      id: runnerTokens.id,
      name: runnerTokens.name,
      createdAt: runnerTokens.createdAt,
      lastUsedAt: runnerTokens.lastUsedAt,
      revokedAt: runnerTokens.revokedAt,
      createdByName: sql<string | null>`coalesce(${users.name}, ${users.email})`,
      embedded: runnerTokens.embedded,
    })
    .from(runnerTokens)
    .leftJoin(users, eq(users.id, runnerTokens.createdBy))
    .orderBy(desc(runnerTokens.createdAt));
}

export async function revokeRunnerToken(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(runnerTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(runnerTokens.id, id), isNull(runnerTokens.revokedAt)))
    .returning({ id: runnerTokens.id });
  return rows.length > 0;
}

export async function insertRunner(
  db: Executor,
  input: { tokenId: string; name: string; capabilities: RunnerCapabilities },
): Promise<Runner> {
  const [row] = await db.insert(runners).values(input).returning();
  return row;
}

/** Holds the token's row until the transaction ends: one token's registrations are counted one at a time. */
export async function lockRunnerToken(db: Executor, tokenId: string): Promise<void> {
  await db.execute(sql`SELECT id FROM runner_tokens WHERE id = ${tokenId} FOR UPDATE`);
}

/** Deletes runners not heard from for `staleAfterS` that run no job (their attempts keep the runner's name); how many. */
export async function deleteStaleRunners(db: Executor, staleAfterS: number): Promise<number> {
  const result = await db.execute<{ id: string }>(sql`
    DELETE FROM runners r
    WHERE r.last_seen_at < now() - make_interval(secs => ${staleAfterS})
      AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.runner_id = r.id AND j.status = 'running')
    RETURNING r.id`);
  return result.rows.length;
}

/** The token's runner with this name on this host (a runner starting again), if any. */
export async function getRunnerByNameAndHost(
  db: Executor,
  tokenId: string,
  name: string,
  hostname: string | null,
): Promise<Runner | null> {
  const [row] = await db
    .select()
    .from(runners)
    .where(
      and(
        eq(runners.tokenId, tokenId),
        eq(runners.name, name),
        sql`(${runners.capabilities} ->> 'hostname') IS NOT DISTINCT FROM ${hostname}`,
      ),
    )
    .orderBy(desc(runners.lastSeenAt))
    .limit(1);
  return row ?? null;
}

/** A runner registering again: its new capabilities, registered and seen now. */
export async function reRegisterRunner(db: Executor, id: string, capabilities: RunnerCapabilities): Promise<void> {
  await db
    .update(runners)
    .set({ capabilities, registeredAt: sql`now()`, lastSeenAt: sql`now()` })
    .where(eq(runners.id, id));
}

/** How many runners the token holds, and in how many seconds the least recently seen of them turns `staleAfterS` old. */
export async function countRunnersOfToken(
  db: Executor,
  tokenId: string,
  staleAfterS: number,
): Promise<{ count: number; oldestStaleInS: number }> {
  const result = await db.execute<{ count: number | string; oldest_stale_in_s: number | string | null }>(sql`
    SELECT count(*) AS count,
           extract(epoch FROM min(last_seen_at) + make_interval(secs => ${staleAfterS}) - now()) AS oldest_stale_in_s
    FROM runners WHERE token_id = ${tokenId}`);
  const row = result.rows[0];
  return { count: Number(row.count), oldestStaleInS: Number(row.oldest_stale_in_s ?? staleAfterS) };
}

/** The runner, if it was registered with this token (a token never acts for another's runner). */
export async function getRunnerOfToken(db: Executor, runnerId: string, tokenId: string): Promise<Runner | null> {
  const [row] = await db
    .select()
    .from(runners)
    .where(and(eq(runners.id, runnerId), eq(runners.tokenId, tokenId)))
    .limit(1);
  return row ?? null;
}

export async function touchRunner(db: Executor, runnerId: string): Promise<void> {
  await db
    .update(runners)
    .set({ lastSeenAt: sql`now()` })
    .where(eq(runners.id, runnerId));
}

export async function getRunnerById(db: Executor, id: string): Promise<Runner | null> {
  const [row] = await db.select().from(runners).where(eq(runners.id, id)).limit(1);
  return row ?? null;
}

export async function listRunners(
  db: Executor,
  limit = 200,
): Promise<(Runner & { tokenName: string; tokenRevoked: boolean })[]> {
  const rows = await db
    .select({ runner: runners, tokenName: runnerTokens.name, tokenRevokedAt: runnerTokens.revokedAt })
    .from(runners)
    .innerJoin(runnerTokens, eq(runnerTokens.id, runners.tokenId))
    .orderBy(desc(runners.lastSeenAt))
    .limit(limit);
  return rows.map((r) => ({ ...r.runner, tokenName: r.tokenName, tokenRevoked: r.tokenRevokedAt !== null }));
}

/** The studio's own runner gets a fresh token each start; the ones before are revoked. */
export async function revokeEmbeddedRunnerTokens(db: Executor): Promise<void> {
  await db
    .update(runnerTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(runnerTokens.embedded, true), isNull(runnerTokens.revokedAt)));
}

/** Runners of live tokens heard from in the last `withinS` seconds (the metrics' runners online). */
export async function countRunnersSeenWithin(db: Executor, withinS: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(runners)
    .innerJoin(runnerTokens, eq(runnerTokens.id, runners.tokenId))
    .where(and(isNull(runnerTokens.revokedAt), sql`${runners.lastSeenAt} > now() - make_interval(secs => ${withinS})`));
  return Number(row.count);
}
