import { describe, expect, it } from "vitest";
import { computeMetrics } from "@/lib/judge/eval/metrics";
import { formatAgreement, judgeHumanAgreement, type AgreementPair } from "./agreement";

/** `n` pairs, agreeing on about 85% of them (deterministic pattern). */
function pairs(n: number): AgreementPair[] {
  return Array.from({ length: n }, (_, i) => {
    const human = i % 3 === 0 ? 0 : 1;
    const judge = i % 7 === 0 ? 1 - human : human;
    return { human, judge };
  });
}

describe("judge–human agreement", () => {
  it("F1 is JudgeEval's, and the 95% interval contains it", () => {
    const p = pairs(120);
    const a = judgeHumanAgreement(p, { seed: "evaluation-1" })!;
    expect(a.f1).toBe(
      computeMetrics(
        p.map((x) => x.human),
        p.map((x) => x.judge),
      ).f1,
    );
    expect(a.leaves).toBe(120);
    expect(a.ciLow).toBeLessThanOrEqual(a.f1);
    expect(a.ciHigh).toBeGreaterThanOrEqual(a.f1);
    expect(a.ciHigh - a.ciLow).toBeGreaterThan(0);
  });

  it("narrows as leaves grow", () => {
    const small = judgeHumanAgreement(pairs(40), { seed: "e" })!;
    const large = judgeHumanAgreement(pairs(1600), { seed: "e" })!;
    expect(large.ciHigh - large.ciLow).toBeLessThan((small.ciHigh - small.ciLow) / 3);
  });

  it("is deterministic per seed", () => {
    const p = pairs(200);
    expect(judgeHumanAgreement(p, { seed: "x" })).toEqual(judgeHumanAgreement(p, { seed: "x" }));
    expect(judgeHumanAgreement(p, { seed: "x" })).not.toEqual(judgeHumanAgreement(p, { seed: "y" }));
  });

  it("perfect agreement is 1 with a zero-width interval; no leaves, no agreement", () => {
    const p = pairs(50).map((x) => ({ human: x.human, judge: x.human }));
    expect(judgeHumanAgreement(p, { seed: "s" })).toEqual({ f1: 1, ciLow: 1, ciHigh: 1, leaves: 50 });
    expect(judgeHumanAgreement([], { seed: "s" })).toBeNull();
  });

  it("reads as the badge says it", () => {
    expect(formatAgreement({ f1: 0.8412, ciLow: 0.81, ciHigh: 0.87, leaves: 400 })).toBe(
      "judge agreement 0.84 ± 0.03 on 400 leaves",
    );
  });
});
