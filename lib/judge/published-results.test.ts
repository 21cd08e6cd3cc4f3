import { describe, expect, it } from "vitest";
import { PAPERBENCH_JUDGE_EVAL_SOURCE, PAPERBENCH_PUBLISHED_JUDGES } from "./published-results";

describe("PaperBench's published judge results", () => {
  it("names its source", () => {
    expect(PAPERBENCH_JUDGE_EVAL_SOURCE.title).toMatch(/PaperBench/);
    expect(PAPERBENCH_JUDGE_EVAL_SOURCE.url).toMatch(/^https:\/\/arxiv\.org\/abs\//);
  });

  it("holds the figures the paper reports, F1 in [0, 1] and a positive cost (random: none)", () => {
    const byJudge = Object.fromEntries(PAPERBENCH_PUBLISHED_JUDGES.map((r) => [r.judge, [r.f1, r.costPerPaperUsd]]));
    expect(byJudge).toEqual({
      "o3-mini-high": [0.83, 66],
      "o1-high": [0.84, 830],
      "o1-mini-high": [0.78, 72],
      "gpt-4o": [0.73, 120],
      "gpt-4o-mini": [0.59, 8],
      random: [0.5, null],
    });
    for (const r of PAPERBENCH_PUBLISHED_JUDGES) {
      expect(r.f1).toBeGreaterThanOrEqual(0);
      expect(r.f1).toBeLessThanOrEqual(1);
      if (r.costPerPaperUsd !== null) expect(r.costPerPaperUsd).toBeGreaterThan(0);
    }
  });
});
