import { describe, expect, it } from "vitest";
import { formatMeanSe, rankedScoreDigits } from "./format";

describe("the leaderboard's score decimals", () => {
  it("writes one decimal while rows of different rank read differently", () => {
    expect(
      rankedScoreDigits([
        { rank: 1, mean: 0.61 },
        { rank: 1, mean: 0.61 },
        { rank: 3, mean: 0.5 },
      ]),
    ).toBe(1);
    expect(rankedScoreDigits([])).toBe(1);
  });

  it("adds decimals when two means that rank apart round alike, as the demo's 60.24% and 60.22% did", () => {
    const rows = [
      { rank: 1, mean: 0.6023885836385837 },
      { rank: 2, mean: 0.6021749084249084 },
      { rank: 3, mean: 0.47 },
    ];
    expect(rankedScoreDigits(rows)).toBe(2);
    expect(formatMeanSe(rows[0].mean, 0.0238, 2)).toBe("60.24% ± 2.38");
    expect(
      rankedScoreDigits([
        { rank: 1, mean: 0.60001 },
        { rank: 2, mean: 0.6 },
      ]),
    ).toBe(3);
  });

  it("ignores unranked rows (a baseline, no complete run)", () => {
    expect(
      rankedScoreDigits([
        { rank: 1, mean: 0.6024 },
        { rank: null, mean: 0.6022 },
        { rank: 2, mean: 0.5 },
      ]),
    ).toBe(1);
  });
});
