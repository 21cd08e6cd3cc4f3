/**
 * Sign-in throttling: how many password attempts a key (an account, or a client address) gets
 * before it must wait, and how long. Pure; the server keeps the state of each key in the database
 * (`sign_in_throttle`), so every instance applies the same count.
 *
 * An attempt is counted when it starts, as if it would fail, and given back if it succeeds: so
 * two hundred attempts sent at once get no more guesses than two hundred sent one after another.
 */

/** Failures a key may have before each further attempt waits: an account, and a client address (many people may share one). */
export const FREE_FAILURES = { account: 5, address: 20 } as const;
export type ThrottleKind = keyof typeof FREE_FAILURES;

/** Failures are forgotten once a key has been quiet this long (no failure, no block running). */
export const THROTTLE_WINDOW_SECONDS = 15 * 60;
/** The longest wait: the backoff doubles up to here. */
export const MAX_BLOCK_SECONDS = 15 * 60;

export interface ThrottleState {
  failures: number;
  lastFailureAt: Date;
  blockedUntil: Date | null;
}

/** How long a key waits after its `failures`-th failure: nothing up to the free ones, then 1 s, 2 s, 4 s… up to 15 min. */
export function blockSeconds(failures: number, kind: ThrottleKind): number {
  const over = failures - FREE_FAILURES[kind];
  if (over < 0) return 0;
  // 2^10 s already passes the cap: no need to compute larger powers.
  return Math.min(2 ** Math.min(over, 10), MAX_BLOCK_SECONDS);
}

export type AttemptDecision =
  | { allowed: false; retryAfterSeconds: number }
  /** `next` is the key's state with this attempt counted as a failure. */
  | { allowed: true; next: ThrottleState };

/**
 * Whether a key (with its stored state, or none) may try a password now, and its state counting
 * this attempt. Attempts refused during a block do not count: waiting out a block is enough.
 */
export function decideAttempt(state: ThrottleState | null, kind: ThrottleKind, now: Date): AttemptDecision {
  if (state?.blockedUntil && state.blockedUntil > now) {
    return { allowed: false, retryAfterSeconds: Math.ceil((state.blockedUntil.getTime() - now.getTime()) / 1000) };
  }
  // Quiet since the later of the last failure and the end of its block: so a key at the cap does
  // not start over with free attempts the moment its 15-minute block ends.
  const lastActivity = Math.max(state?.lastFailureAt.getTime() ?? 0, state?.blockedUntil?.getTime() ?? 0);
  const remembered = state && now.getTime() - lastActivity < THROTTLE_WINDOW_SECONDS * 1000 ? state.failures : 0;
  const failures = remembered + 1;
  const block = blockSeconds(failures, kind);
  return {
    allowed: true,
    next: { failures, lastFailureAt: now, blockedUntil: block > 0 ? new Date(now.getTime() + block * 1000) : null },
  };
}

// The code a refused sign-in carries to the sign-in page (Auth.js puts it in the page's URL): the wait is in it.
const TOO_MANY_ATTEMPTS = "too_many_attempts";

export function tooManyAttemptsCode(retryAfterSeconds: number): string {
  return `${TOO_MANY_ATTEMPTS}:${retryAfterSeconds}`;
}

/** The wait a sign-in error code asks for, or null when the code is not a throttle's. */
export function retryAfterFromCode(code: string | undefined): number | null {
  const match = code?.match(new RegExp(`^${TOO_MANY_ATTEMPTS}:(\\d{1,6})$`));
  return match ? Number(match[1]) : null;
}
