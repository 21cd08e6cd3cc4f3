import { describe, expect, it } from "vitest";
import { cohensKappa } from "@/lib/judge/eval/metrics";
import { raterPairAgreements, type RaterScore } from "./rater-agreement";

const CD = "Code Development";
const EX = "Code Execution";

describe("Cohen's κ", () => {
  it("matches hand-computed values", () => {
    // 10 leaves: both 1 on 4, both 0 on 3, A 1 / B 0 on 2, A 0 / B 1 on 1.
    // pₒ = 7/10; A says 1 on 6, B on 5: pₑ = 0.6·0.5 + 0.4·0.5 = 0.5; κ = (0.7 − 0.5) / 0.5 = 0.4.
    expect(cohensKappa({ tp: 4, tn: 3, fn: 2, fp: 1 })).toBeCloseTo(0.4, 12);
    // Perfect agreement with both labels: 1; systematic disagreement: −1.
    expect(cohensKappa({ tp: 2, tn: 3, fn: 0, fp: 0 })).toBe(1);
    expect(cohensKappa({ tp: 0, tn: 0, fn: 2, fp: 2 })).toBe(-1);
    // One label throughout on both sides: undefined (sklearn's NaN); no samples too.
    expect(cohensKappa({ tp: 5, tn: 0, fn: 0, fp: 0 })).toBeNull();
    expect(cohensKappa({ tp: 0, tn: 0, fn: 0, fp: 0 })).toBeNull();
    // Symmetric in the raters.
    expect(cohensKappa({ tp: 4, tn: 3, fn: 1, fp: 2 })).toBeCloseTo(0.4, 12);
  });
});

describe("agreement between the raters of a grading", () => {
  const s = (rater: string, leaf: string, score: number, category: string | null = CD): RaterScore => ({
    rater,
    leaf,
    score,
    category,
  });

  it("pairs raters on the leaves both scored, overall and per task category", () => {
    const scores = [
      // Code Development: l1..l4; alice and bob agree on l1 (1), l2 (0), l3 (1), differ on l4.
      s("alice", "l1", 1),
      s("bob", "l1", 1),
      s("alice", "l2", 0),
      s("bob", "l2", 0),
      s("alice", "l3", 1),
      s("bob", "l3", 1),
      s("alice", "l4", 1),
      s("bob", "l4", 0),
      // Code Execution: l5, l6 — one each way.
      s("alice", "l5", 1, EX),
      s("bob", "l5", 0, EX),
      s("alice", "l6", 0, EX),
      s("bob", "l6", 1, EX),
      // Only alice scored l7: not compared. Carol shares no leaf with anyone.
      s("alice", "l7", 1),
      s("carol", "l9", 1),
    ];
    const pairs = raterPairAgreements(scores, ["alice", "bob", "carol"]);
    expect(pairs.map((p) => [p.a, p.b])).toEqual([["alice", "bob"]]);
    const [ab] = pairs;
    // Overall, by hand: both 1 on l1, l3 (2); both 0 on l2 (1); alice 1 / bob 0 on l4, l5 (2); alice 0 / bob 1 on l6 (1).
    // pₒ = 3/6; A says 1 on 4/6, B on 3/6: pₑ = 4/6·3/6 + 2/6·3/6 = 1/2; κ = 0.
    expect(ab.overall.leaves).toBe(6);
    expect(ab.overall.agreed).toBe(3);
    expect(ab.overall.kappa).toBeCloseTo(0, 12);
    // F1 per class: class 1: 2·2 / (4 + 3) = 4/7; class 0: 2·1 / (2 + 3) = 2/5; macro = (4/7 + 2/5) / 2.
    expect(ab.overall.f1).toBeCloseTo((4 / 7 + 2 / 5) / 2, 12);
    // Code Development: tp 2, tn 1, fn 1: pₒ = 3/4; A 1 on 3/4, B on 2/4: pₑ = 3/8 + 1/8 = 1/2; κ = 0.5.
    expect(ab.byCategory["Code Development"]).toMatchObject({ leaves: 4, agreed: 3 });
    expect(ab.byCategory["Code Development"]!.kappa).toBeCloseTo(0.5, 12);
    // F1: class 1: 2·2 / (3 + 2) = 0.8; class 0: 2·1 / (1 + 2) = 2/3.
    expect(ab.byCategory["Code Development"]!.f1).toBeCloseTo((0.8 + 2 / 3) / 2, 12);
    // Code Execution: always disagree: κ = −1, F1 0.
    expect(ab.byCategory["Code Execution"]).toMatchObject({ kappa: -1, f1: 0, leaves: 2, agreed: 0 });
    expect(ab.byCategory["Result Analysis"]).toBeUndefined();
  });

  it("reads fractions as labels at 0.5, and finds no pair with one rater", () => {
    const pairs = raterPairAgreements(
      [s("judge", "l1", 1), s("ann", "l1", 0.5), s("judge", "l2", 0), s("ann", "l2", 0.4)],
      ["judge", "ann"],
    );
    expect(pairs[0].overall).toMatchObject({ kappa: 1, f1: 1, leaves: 2, agreed: 2 });
    expect(raterPairAgreements([s("ann", "l1", 1)], ["ann"])).toEqual([]);
  });
});
