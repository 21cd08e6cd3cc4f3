import { describe, expect, it } from "vitest";
import { formatMeanSe, formatPercent } from "./format";
import { chooseDefaultSplit, resolveSplits } from "./splits";

describe("resolveSplits", () => {
  it("offers the data's splits, `all` first, and a studio split for papers graded outside the data's `all`", () => {
    const data = { lite: ["a"], all: ["a", "b"], empty: [], dev: ["b"] };
    expect(resolveSplits(data, ["a"]).map((s) => [s.name, s.source, s.paperIds])).toEqual([
      ["all", "data", ["a", "b"]],
      ["dev", "data", ["b"]],
      ["lite", "data", ["a"]],
    ]);
    expect(resolveSplits(data, ["z", "a", "z"]).map((s) => [s.name, s.paperIds])).toEqual([
      ["all", ["a", "b"]],
      ["studio", ["a", "z"]],
      ["dev", ["b"]],
      ["lite", ["a"]],
    ]);
  });

  it("without data, `all` is every graded paper; nothing graded, no split", () => {
    expect(resolveSplits({}, ["b", "a"])).toEqual([{ name: "all", paperIds: ["a", "b"], source: "studio" }]);
    expect(resolveSplits({}, [])).toEqual([]);
    // Data without an `all`: the studio's own `all` comes first.
    expect(resolveSplits({ lite: ["a"] }, ["a", "c"]).map((s) => s.name)).toEqual(["all", "lite"]);
  });
});

describe("chooseDefaultSplit", () => {
  const tally = (name: string, completeRuns: number, agents: number) => ({ name, completeRuns, agents });

  it("opens on the split with the most complete runs, the first of equals in the offered order", () => {
    expect(chooseDefaultSplit([tally("all", 1, 4), tally("studio", 12, 4), tally("lite", 3, 2)])).toBe("studio");
    expect(chooseDefaultSplit([tally("all", 3, 4), tally("studio", 3, 5), tally("lite", 3, 2)])).toBe("all");
    expect(chooseDefaultSplit([tally("all", 0, 1), tally("dev", 2, 1), tally("lite", 2, 1)])).toBe("dev");
  });

  it("with no complete run anywhere, the first split that lists an agent; nothing graded, the first split or none", () => {
    expect(chooseDefaultSplit([tally("all", 0, 0), tally("studio", 0, 1), tally("dev", 0, 3)])).toBe("studio");
    expect(chooseDefaultSplit([tally("all", 0, 0), tally("lite", 0, 0)])).toBe("all");
    expect(chooseDefaultSplit([])).toBeNull();
  });
});

describe("score formatting", () => {
  it("writes percentages with one decimal, ± the standard error when there is one", () => {
    expect(formatPercent(0.41325)).toBe("41.3%");
    expect(formatPercent(null)).toBe("—");
    expect(formatMeanSe(0.41325, 0.0214)).toBe("41.3% ± 2.1");
    expect(formatMeanSe(0.5, null)).toBe("50.0%");
    expect(formatMeanSe(null, null)).toBe("—");
  });
});
