import { describe, expect, it } from "vitest";
import { DEFAULT_POLICIES, isPaperbenchDefaultPolicies } from "./default-policies";
import { createEvaluationSchema, evaluationPoliciesSchema } from "./schemas";

describe("PaperBench's default failure policies", () => {
  it("are every kind counted 0, and an evaluation made without policies gets them", () => {
    expect(DEFAULT_POLICIES).toEqual({
      reproduction_failed: "zero",
      reproduction_timed_out: "zero",
      judge_invalid_leaves: "zero",
      blacklisted: "zero",
    });
    const created = createEvaluationSchema.parse({ name: "e", agent: "a", runs: 1 });
    expect(isPaperbenchDefaultPolicies(created.policies)).toBe(true);
    // Stored before `blacklisted` existed: its default fills in, still PaperBench's.
    const older = {
      reproduction_failed: "zero",
      reproduction_timed_out: "zero",
      judge_invalid_leaves: "zero",
    } as const;
    expect(isPaperbenchDefaultPolicies(evaluationPoliciesSchema.parse(older))).toBe(true);
    expect(isPaperbenchDefaultPolicies(older)).toBe(true);
  });

  it("differ as soon as one kind is excluded or retried", () => {
    expect(isPaperbenchDefaultPolicies({ ...DEFAULT_POLICIES, reproduction_failed: "exclude" })).toBe(false);
    expect(isPaperbenchDefaultPolicies({ ...DEFAULT_POLICIES, reproduction_timed_out: { retry: 1 } })).toBe(false);
    expect(isPaperbenchDefaultPolicies({ ...DEFAULT_POLICIES, judge_invalid_leaves: "exclude" })).toBe(false);
    expect(isPaperbenchDefaultPolicies({ ...DEFAULT_POLICIES, blacklisted: "exclude" })).toBe(false);
    expect(isPaperbenchDefaultPolicies(null)).toBe(false);
  });
});
