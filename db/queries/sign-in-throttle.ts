import "server-only";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Executor, Transaction } from "../client";
import { signInThrottle, type SignInThrottle } from "../schema";
import { toDate, type SqlTimestamp } from "./sql-row";

/**
 * The throttle rows of `keys` (created empty where missing), locked until the transaction ends,
 * and the database's clock: every instance counts on the same clock, and an instance that locks
 * a row waits for the one that holds it, so concurrent sign-ins count one after another. Rows are
 * created and locked in key order, so two sign-ins never wait on each other in a cycle.
 */
export async function lockSignInThrottles(
  tx: Transaction,
  keys: string[],
): Promise<{ now: Date; rows: SignInThrottle[] }> {
  const sorted = [...new Set(keys)].sort();
  await tx
    .insert(signInThrottle)
    .values(sorted.map((key) => ({ key })))
    .onConflictDoNothing({ target: signInThrottle.key });
  const rows = await tx
    .select()
    .from(signInThrottle)
    .where(inArray(signInThrottle.key, sorted))
    .orderBy(signInThrottle.key)
    .for("update");
  if (rows.length !== sorted.length)
    throw new Error(`sign-in throttle rows missing after insert: ${sorted.join(", ")}`);
  // The clock read once the locks are held: a sign-in that waited for another counts from when it
  // got the rows, not from when its transaction began (now()), which would add the wait to a block.
  const clock = await tx.execute<{ now: SqlTimestamp }>(sql`SELECT clock_timestamp() AS now`);
  return { now: toDate(clock.rows[0].now), rows };
}

export async function setSignInThrottle(tx: Transaction, row: SignInThrottle): Promise<void> {
  await tx
    .update(signInThrottle)
    .set({ failures: row.failures, lastFailureAt: row.lastFailureAt, blockedUntil: row.blockedUntil })
    .where(eq(signInThrottle.key, row.key));
}

export async function deleteSignInThrottle(db: Executor, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}

/** Takes one failure back from a key (an attempt counted in advance that succeeded); its block, if any, stays. */
export async function uncountSignInFailure(db: Executor, key: string): Promise<void> {
  await db
    .update(signInThrottle)
    .set({ failures: sql`${signInThrottle.failures} - 1` })
    .where(and(eq(signInThrottle.key, key), gt(signInThrottle.failures, 0)));
}

/**
 * Deletes the rows quiet for `seconds` (no failure, no block running since). Rows another sign-in
 * holds are skipped rather than waited for: this is housekeeping, never worth a wait or a deadlock.
 */
export async function deleteQuietSignInThrottles(db: Executor, seconds: number): Promise<void> {
  await db.execute(sql`
    DELETE FROM ${signInThrottle} WHERE ${signInThrottle.key} IN (
      SELECT ${signInThrottle.key} FROM ${signInThrottle}
      WHERE greatest(${signInThrottle.lastFailureAt}, coalesce(${signInThrottle.blockedUntil}, ${signInThrottle.lastFailureAt}))
        < now() - make_interval(secs => ${seconds})
      FOR UPDATE SKIP LOCKED
    )`);
}
