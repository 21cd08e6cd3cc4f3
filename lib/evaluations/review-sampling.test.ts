import { describe, expect, it } from "vitest";
import { treeToRows } from "@/lib/rubric/tree-rows";
import type { RubricNode } from "@/lib/rubric/types";
import { sampleLeaves, sampleableLeaves, stratumQuotas, type SampleableLeaf } from "./review-sampling";

/** `n` leaves of a category, each with the same share. */
const leaves = (category: string | null, n: number, share: number, prefix = category ?? "none"): SampleableLeaf[] =>
  Array.from({ length: n }, (_, i) => ({ key: `${prefix}-${i}`, category, share }));

const categoryOf = (key: string) => key.slice(0, key.lastIndexOf("-"));

describe("review sampling", () => {
  it("stratifies by task category in proportion to its leaves", () => {
    const all = [
      ...leaves("Code Development", 60, 0.01),
      ...leaves("Execution", 30, 0.01),
      ...leaves("Result Analysis", 10, 0.01),
    ];
    for (const seed of ["g1", "g2", "g3"]) {
      const sample = sampleLeaves(all, 10, seed);
      expect(sample).toHaveLength(10);
      const count = (c: string) => sample.filter((k) => categoryOf(k) === c).length;
      expect([count("Code Development"), count("Execution"), count("Result Analysis")]).toEqual([6, 3, 1]);
    }
  });

  it("quotas add up to the sample by largest remainder and never exceed a stratum", () => {
    expect(
      Object.fromEntries(
        stratumQuotas(
          new Map([
            ["a", 5],
            ["b", 5],
            ["c", 1],
          ]),
          4,
        ),
      ),
    ).toEqual({ a: 2, b: 2, c: 0 });
    expect(
      Object.fromEntries(
        stratumQuotas(
          new Map([
            ["a", 2],
            ["b", 1],
          ]),
          2,
        ),
      ),
    ).toEqual({ a: 1, b: 1 });
    const q = stratumQuotas(
      new Map([
        ["a", 7],
        ["b", 3],
        ["c", 3],
      ]),
      5,
    );
    expect([...q.values()].reduce((a, b) => a + b, 0)).toBe(5);
  });

  it("weights draws within a category by effective share: heavy leaves come up far more often", () => {
    // One category: 10 heavy leaves (share 0.09) and 10 light ones (0.01); draw 5 per grading.
    const all = [...leaves("x", 10, 0.09, "heavy"), ...leaves("x", 10, 0.01, "light")].map((l) => ({
      ...l,
      category: "x",
    }));
    let heavy = 0;
    let light = 0;
    for (let g = 0; g < 400; g++) {
      for (const key of sampleLeaves(all, 5, `grading-${g}`)) {
        if (key.startsWith("heavy")) heavy++;
        else light++;
      }
    }
    expect(heavy + light).toBe(2000);
    expect(heavy / (heavy + light)).toBeGreaterThan(0.8);
    // A leaf that weighs nothing is drawn only when its stratum has nothing else.
    const zero = [...leaves("x", 3, 0.3, "w"), ...leaves("x", 3, 0, "z")];
    for (let g = 0; g < 50; g++) expect(sampleLeaves(zero, 3, `g${g}`).every((k) => k.startsWith("w"))).toBe(true);
  });

  it("is deterministic per grading id and differs between gradings", () => {
    const all = [...leaves("a", 40, 0.01), ...leaves("b", 40, 0.015)];
    expect(sampleLeaves(all, 12, "0f7c…grading")).toEqual(sampleLeaves(all, 12, "0f7c…grading"));
    expect(sampleLeaves(all, 12, "grading-1")).not.toEqual(sampleLeaves(all, 12, "grading-2"));
  });

  it("a sample as large as the grading (or larger) takes every leaf, in order", () => {
    const all = [...leaves("a", 3, 0.2), ...leaves(null, 2, 0.2)];
    expect(sampleLeaves(all, 5, "s")).toEqual(all.map((l) => l.key));
    expect(sampleLeaves(all, 50, "s")).toEqual(all.map((l) => l.key));
    expect(sampleLeaves(all, 0, "s")).toEqual([]);
  });

  it("reads leaves, categories and shares from a pinned rubric's rows", () => {
    const leaf = (id: string, weight: number, task_category: string): RubricNode => ({
      id,
      requirements: id,
      weight,
      sub_tasks: [],
      task_category,
      finegrained_task_category: null,
    });
    const tree: RubricNode = {
      id: "root",
      requirements: "root",
      weight: 1,
      task_category: null,
      finegrained_task_category: null,
      sub_tasks: [
        leaf("a", 3, "Code Development"),
        {
          id: "n",
          requirements: "n",
          weight: 1,
          task_category: null,
          finegrained_task_category: null,
          sub_tasks: [leaf("b", 1, "Execution"), leaf("c", 1, "Execution")],
        },
      ],
    };
    let k = 0;
    const out = sampleableLeaves(treeToRows(tree, () => `k${k++}`));
    expect(out).toEqual([
      { key: "k1", category: "Code Development", share: 0.75 },
      { key: "k3", category: "Execution", share: 0.125 },
      { key: "k4", category: "Execution", share: 0.125 },
    ]);
  });
});
