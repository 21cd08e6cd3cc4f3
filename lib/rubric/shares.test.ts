import { describe, expect, it } from "vitest";
import { ALL_PAPERS, skipWithoutData } from "./paperbench-data.testutil";
import { realRows, specRows } from "./rows-fixtures.testutil";
import { effectiveShares, formatShare, leafCountBelow, subtreeShareByCategory } from "./shares";
import { buildTreeIndex } from "./tree-index";

//        r
//   a(3)      b(1)
// a1(1) a2(2)   b1(0) b2(0)      (b's children all weigh 0)
const rows = () =>
  specRows({
    key: "r",
    kids: [
      {
        key: "a",
        w: 3,
        kids: [
          { key: "a1", w: 1, cat: "Code Development", fine: "Method Implementation" },
          { key: "a2", w: 2, cat: "Result Analysis", fine: null },
        ],
      },
      {
        key: "b",
        w: 1,
        kids: [
          { key: "b1", w: 0 },
          { key: "b2", w: 0, cat: "Code Execution" },
        ],
      },
    ],
  });

describe("effectiveShares", () => {
  it("multiplies weight / sibling sum along the path; zero-sum siblings get 0", () => {
    const shares = effectiveShares(buildTreeIndex(rows()));
    expect(shares.get("r")).toBe(1);
    expect(shares.get("a")).toBe(0.75);
    expect(shares.get("b")).toBe(0.25);
    expect(shares.get("a1")).toBeCloseTo(0.25, 15);
    expect(shares.get("a2")).toBeCloseTo(0.5, 15);
    expect(shares.get("b1")).toBe(0);
    expect(shares.get("b2")).toBe(0);
    expect(shares.size).toBe(7);
  });

  it("is empty for no rows; a root alone has 1", () => {
    expect(effectiveShares(buildTreeIndex([])).size).toBe(0);
    expect([...effectiveShares(buildTreeIndex(specRows({ key: "r" })))]).toEqual([["r", 1]]);
  });
});

describe("leafCountBelow", () => {
  it("counts the leaves of a subtree; a leaf counts itself", () => {
    const index = buildTreeIndex(rows());
    expect(leafCountBelow(index, "r")).toBe(4);
    expect(leafCountBelow(index, "a")).toBe(2);
    expect(leafCountBelow(index, "a1")).toBe(1);
    expect(leafCountBelow(index, "nope")).toBe(0);
  });
});

describe("subtreeShareByCategory", () => {
  it("sums the leaves' final-score shares per category, (none) for null", () => {
    const index = buildTreeIndex(rows());
    const shares = effectiveShares(index);
    const all = subtreeShareByCategory(index, shares, "r");
    expect(all.taskCategory).toEqual({
      "Code Development": 0.25,
      "Result Analysis": 0.5,
      "Code Execution": 0,
    });
    expect(all.finegrained).toEqual({ "Method Implementation": 0.25, "(none)": 0.5 });
    expect(subtreeShareByCategory(index, shares, "a1")).toEqual({
      taskCategory: { "Code Development": 0.25 },
      finegrained: { "Method Implementation": 0.25 },
    });
    expect(subtreeShareByCategory(index, shares, "nope")).toEqual({ taskCategory: {}, finegrained: {} });
  });
});

describe("formatShare", () => {
  it.each([
    [0, "0%"],
    [1, "100%"],
    [0.018, "1.8%"],
    [0.25, "25.0%"],
    [0.01, "1.0%"],
    [0.99999, "100.0%"],
    [0.00042, "0.042%"],
    [0.00004, "0.0040%"],
    [0.005, "0.50%"],
    [0.00996, "1.0%"],
    [0.000996, "0.10%"],
    [0.0000123456, "0.0012%"],
    [1.234e-9, "0.00000012%"],
    [5e-7, "0.000050%"],
    [0.0000996, "0.010%"],
    [1.234e-25, "1.2e-23%"],
    [-0.018, "-1.8%"],
  ])("%s → %s", (x, text) => {
    expect(formatShare(x)).toBe(text);
  });
});

describe("shares on the real rubrics", () => {
  it.skipIf(skipWithoutData).each(ALL_PAPERS)(
    "%s: leaf shares add up to 1, every subtree to its own share",
    (paper) => {
      const index = buildTreeIndex(realRows(paper));
      const shares = effectiveShares(index);
      const byCat = subtreeShareByCategory(index, shares, index.root!.key);
      const total = Object.values(byCat.taskCategory).reduce((a, b) => a + b, 0);
      expect(total).toBeCloseTo(1, 12);
      expect(Object.values(byCat.finegrained).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      for (const row of index.preorder.slice(0, 50)) {
        const sub = subtreeShareByCategory(index, shares, row.key);
        const sum = Object.values(sub.taskCategory).reduce((a, b) => a + b, 0);
        expect(sum).toBeCloseTo(shares.get(row.key)!, 12);
      }
      expect(leafCountBelow(index, index.root!.key)).toBe(index.preorder.filter((r) => index.isLeaf(r.key)).length);
    },
  );
});
