import { describe, expect, it } from "vitest";
import { policyLabel } from "./policy-label";
import { DEFAULT_POLICIES } from "./default-policies";

describe("policy label", () => {
  it("names the aggregation and every failure kind's policy, with the cells it applied to", () => {
    expect(
      policyLabel({
        aggregation: "mean",
        runs: 3,
        policies: { ...DEFAULT_POLICIES, judge_invalid_leaves: "exclude" },
        states: ["succeeded", "failed", "invalid_leaves", "invalid_leaves"],
      }),
    ).toMatch(
      /^mean of 3 runs · every reproduction that ran is judged, failed or timed out too · a reproduction with nothing to judge counts 0 \(1\) · invalid leaves excluded \(2\)( · blacklisted site in the log counts 0)?$/,
    );
  });

  it("says when the policies are PaperBench's defaults", () => {
    expect(policyLabel({ aggregation: "mean", runs: 1, policies: DEFAULT_POLICIES, states: ["succeeded"] })).toBe(
      "mean of 1 run · every reproduction that ran is judged, failed or timed out too · a reproduction with nothing to judge counts 0 · invalid leaves count 0 · blacklisted site in the log counts 0 · PaperBench's default policies",
    );
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
      /^best of 3 · every reproduction that ran is judged, failed or timed out too · a failed reproduction with nothing to judge excluded · a timed-out one with nothing to judge retried up to 2, then excluded \(1\) · invalid leaves count 0( · blacklisted site in the log counts 0)? · 1 not graded yet · 1 awaiting blind review$/,
    );
  });
});
