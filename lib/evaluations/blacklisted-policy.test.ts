import { describe, expect, it } from "vitest";
import { applyPolicies, describePolicy, type EvaluationCell } from "./policies";
import { evaluationPoliciesSchema } from "./schemas";
import { DEFAULT_POLICIES } from "./default-policies";

/** Paper b's run 1 was graded 0.9, but its agent's log names a blacklisted site. */
const CELLS: EvaluationCell[] = [
  { paperId: "a", run: 1, state: "succeeded", score: 0.5 },
  { paperId: "b", run: 1, state: "succeeded", score: 0.9, flagged: true },
  { paperId: "c", run: 1, state: "pending", score: null, flagged: true },
];

describe("the blacklisted policy", () => {
  it("defaults to zero: a flagged cell counts as 0 whatever its state, saying why", () => {
    const r = applyPolicies(CELLS, DEFAULT_POLICIES, { runs: 1, aggregation: "mean" });
    expect(r.counted).toEqual([
      { paperId: "a", run: 1, score: 0.5, note: null },
      { paperId: "b", run: 1, score: 0, note: "count as 0: agent's log names a blacklisted site" },
      { paperId: "c", run: 1, score: 0, note: "count as 0: agent's log names a blacklisted site" },
    ]);
    expect(r.runScores).toEqual([0.5 / 3]);
  });

  it("exclude leaves flagged cells out of the mean with the reason", () => {
    const r = applyPolicies(CELLS, { ...DEFAULT_POLICIES, blacklisted: "exclude" }, { runs: 1, aggregation: "mean" });
    expect(r.excluded).toEqual([
      { paperId: "b", run: 1, reason: "excluded: agent's log names a blacklisted site" },
      { paperId: "c", run: 1, reason: "excluded: agent's log names a blacklisted site" },
    ]);
    expect(r.runScores).toEqual([0.5]);
  });

  it("is zero when a request leaves it out, and refuses retry naming the field", () => {
    const { blacklisted: _, ...older } = DEFAULT_POLICIES;
    expect(evaluationPoliciesSchema.parse(older).blacklisted).toBe("zero");
    const retry = evaluationPoliciesSchema.safeParse({ ...DEFAULT_POLICIES, blacklisted: { retry: 2 } });
    expect(retry.success).toBe(false);
    expect(retry.error?.issues[0].path).toEqual(["blacklisted"]);
    expect(retry.error?.issues[0].message).toBe("must be zero or exclude (a flagged run is not retried)");
    expect(describePolicy("exclude")).toBe("exclude");
  });
});
