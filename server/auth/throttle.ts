import "server-only";
import type { Store } from "@/db/client";
import {
  deleteQuietSignInThrottles,
  deleteSignInThrottle,
  lockSignInThrottles,
  setSignInThrottle,
  uncountSignInFailure,
} from "@/db/queries/sign-in-throttle";
import { normalizeEmail } from "@/db/queries/users";
import { decideAttempt, THROTTLE_WINDOW_SECONDS, type ThrottleKind } from "@/lib/auth/sign-in-throttle";

/**
 * The address a sign-in comes from, for its throttle key: the last entry of X-Forwarded-For.
 * Next.js fills that header with the socket's address when a request comes without one, and a
 * reverse proxy in front of the studio appends the address it saw: either way the last entry is
 * the one written by a party the studio trusts, where earlier entries are whatever the client
 * sent. The studio runs on loopback or behind such a proxy (auth.config.ts); exposed directly, a
 * client that sends its own header picks its address key, but never escapes its account's key.
 */
export function clientAddress(headers: Headers): string | null {
  const entries =
    headers
      .get("x-forwarded-for")
      ?.split(",")
      .map((entry) => entry.trim())
      .filter(Boolean) ?? [];
  return entries.at(-1) ?? null;
}

export interface SignInAttempt {
  /** The keys the attempt was counted against. */
  keys: { key: string; kind: ThrottleKind }[];
  /** The wait this attempt started, should it fail (null: none). */
  retryAfterSecondsIfFailed: number | null;
}

export type AttemptClaim = { allowed: false; retryAfterSeconds: number } | ({ allowed: true } & SignInAttempt);

/**
 * Asks to try a password for `email` from `address`: refused while the account or the address is
 * blocked, else the attempt is counted as a failure on both keys before the password is checked
 * (and given back by `attemptSucceeded`), so parallel attempts cannot all pass before the first
 * failure is recorded.
 */
export async function claimSignInAttempt(store: Store, email: string, address: string | null): Promise<AttemptClaim> {
  const keys: SignInAttempt["keys"] = [{ key: `account:${normalizeEmail(email)}`, kind: "account" }];
  if (address) keys.push({ key: `ip:${address}`, kind: "address" });
  const claim = await store.db.transaction(async (tx): Promise<AttemptClaim> => {
    const { now, rows } = await lockSignInThrottles(
      tx,
      keys.map((k) => k.key),
    );
    const decisions = keys.map(({ key, kind }) => {
      const row = rows.find((r) => r.key === key)!;
      return { row, decision: decideAttempt(row, kind, now) };
    });
    const refusals = decisions.flatMap(({ decision }) => (decision.allowed ? [] : [decision.retryAfterSeconds]));
    if (refusals.length > 0) return { allowed: false, retryAfterSeconds: Math.max(...refusals) };
    let wait = 0;
    for (const { row, decision } of decisions) {
      if (!decision.allowed) continue;
      await setSignInThrottle(tx, { key: row.key, ...decision.next });
      if (decision.next.blockedUntil)
        wait = Math.max(wait, Math.ceil((decision.next.blockedUntil.getTime() - now.getTime()) / 1000));
    }
    return { allowed: true, keys, retryAfterSecondsIfFailed: wait > 0 ? wait : null };
  });
  // Outside the transaction: rows nobody has failed on for a while go (skipping any held right now).
  await deleteQuietSignInThrottles(store.db, THROTTLE_WINDOW_SECONDS);
  return claim;
}

/** The password was right: the account starts afresh, and the address gets its counted attempt back. */
export async function attemptSucceeded(store: Store, attempt: SignInAttempt): Promise<void> {
  for (const { key, kind } of attempt.keys) {
    if (kind === "account") await deleteSignInThrottle(store.db, key);
    else await uncountSignInFailure(store.db, key);
  }
}
