import { describe, expect, it } from "vitest";
import {
  blockSeconds,
  decideAttempt,
  FREE_FAILURES,
  MAX_BLOCK_SECONDS,
  retryAfterFromCode,
  THROTTLE_WINDOW_SECONDS,
  tooManyAttemptsCode,
  type ThrottleState,
} from "./sign-in-throttle";

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);

/** Runs `n` attempts at time `t` from `state`, as each sign-in would. */
function attempts(n: number, t: number, state: ThrottleState | null = null) {
  const decisions = [];
  for (let i = 0; i < n; i++) {
    const d = decideAttempt(state, "account", at(t));
    decisions.push(d);
    if (d.allowed) state = d.next;
  }
  return { decisions, state };
}

describe("blockSeconds", () => {
  it("lets the free failures through, then doubles from 1 s to the 15-minute cap", () => {
    expect([1, 2, 3, 4].map((n) => blockSeconds(n, "account"))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 14].map((n) => blockSeconds(n, "account"))).toEqual([1, 2, 4, 8, 512]);
    expect(blockSeconds(15, "account")).toBe(MAX_BLOCK_SECONDS);
    expect(blockSeconds(10_000, "account")).toBe(MAX_BLOCK_SECONDS);
  });

  it("gives a client address more free failures than an account (people share addresses)", () => {
    expect(blockSeconds(FREE_FAILURES.address - 1, "address")).toBe(0);
    expect(blockSeconds(FREE_FAILURES.address, "address")).toBe(1);
  });
});

describe("decideAttempt", () => {
  it("allows five attempts at once and refuses the sixth until the block ends", () => {
    const { decisions, state } = attempts(6, 0);
    expect(decisions.slice(0, 5).every((d) => d.allowed)).toBe(true);
    expect(decisions[5]).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(state).toEqual({ failures: 5, lastFailureAt: at(0), blockedUntil: at(1) });
  });

  it("does not count attempts refused during a block", () => {
    const { state } = attempts(50, 0);
    expect(state!.failures).toBe(5);
  });

  it("doubles the wait with each failure after a block ends", () => {
    let { state } = attempts(5, 0);
    const waits: number[] = [];
    let t = 0;
    for (let i = 0; i < 4; i++) {
      t = (state!.blockedUntil!.getTime() - at(0).getTime()) / 1000;
      const d = decideAttempt(state, "account", at(t));
      if (!d.allowed) throw new Error("refused after its block ended");
      state = d.next;
      waits.push((state.blockedUntil!.getTime() - at(t).getTime()) / 1000);
    }
    expect(waits).toEqual([2, 4, 8, 16]);
  });

  it("tells how long is left, rounded up to the second", () => {
    const state = { failures: 7, lastFailureAt: at(0), blockedUntil: at(4) };
    expect(decideAttempt(state, "account", new Date(at(1).getTime() + 200))).toEqual({
      allowed: false,
      retryAfterSeconds: 3,
    });
  });

  it("forgets failures after 15 quiet minutes, counted from the end of the last block", () => {
    const state = { failures: 20, lastFailureAt: at(0), blockedUntil: at(MAX_BLOCK_SECONDS) };
    // Right after the cap's block the count goes on (one more failure: blocked again for the cap).
    const right = decideAttempt(state, "account", at(MAX_BLOCK_SECONDS));
    expect(right.allowed && right.next).toEqual({
      failures: 21,
      lastFailureAt: at(MAX_BLOCK_SECONDS),
      blockedUntil: at(2 * MAX_BLOCK_SECONDS),
    });
    const later = decideAttempt(state, "account", at(MAX_BLOCK_SECONDS + THROTTLE_WINDOW_SECONDS));
    expect(later.allowed && later.next).toEqual({
      failures: 1,
      lastFailureAt: at(MAX_BLOCK_SECONDS + THROTTLE_WINDOW_SECONDS),
      blockedUntil: null,
    });
  });
});

describe("the throttle's sign-in error code", () => {
  it("carries the wait to the sign-in page", () => {
    expect(retryAfterFromCode(tooManyAttemptsCode(37))).toBe(37);
    expect(retryAfterFromCode("invalid_credentials")).toBeNull();
    expect(retryAfterFromCode(undefined)).toBeNull();
    expect(retryAfterFromCode("too_many_attempts:1e9")).toBeNull();
  });
});
