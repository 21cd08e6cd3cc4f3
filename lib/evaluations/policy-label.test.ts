import { describe, expect, it } from "vitest";
import { policyLabel } from "./policy-label";
import { DEFAULT_POLICIES } from "./schemas";

describe("policy label", () => {
  it("names the aggregation and every failure kind's policy, with the cells it applied to", () => {
    expect(
      policyLabel({
        aggregation: "mean",
        runs: 3,
        policies: { ...DEFAULT_POLICIES, judge_invalid_leaves: "exclude" },
        states: ["succeeded", "failed", "invalid_leaves", "invalid_leaves"],
      }),
    ).toMatch(/^mean of 3 runs · failed or timed-out reproduction counts 0 \(1\) · invalid leaves excluded \(2\)( · blacklisted site in the log counts 0)?$/);
  });

  it("best of N, reproduction kinds apart when their policies differ, pending and blind-review cells said", () => {
    expect(
      policyLabel({
        aggregation: "best_of_n",
        runs: 3,
        policies: { ...DEFAULT_POLICIES, reproduction_failed: "exclude", reproduction_timed_out: { retry: 2 } },
        states: ["timed_out", "pending"],
        pendingReview: 1,
      }),
    ).toMatch(
      /^best of 3 · failed reproduction excluded · timed-out reproduction retried up to 2, then excluded \(1\) · invalid leaves count 0( · blacklisted site in the log counts 0)? · 1 not graded yet · 1 awaiting blind review$/,
    );
  });
});
