import { describe, expect, it } from "vitest";
import { leaf, node } from "@/lib/grading/grading-data.testutil";
import { toRubricTree } from "@/lib/grading/graded-tree";
import { treeToRows } from "@/lib/rubric/tree-rows";
import { compareGradings, type ComparisonInput } from "./compare-gradings";

// Version 1: root ─ x (w1) · y (w1) · z (w2) · v (w1) · u (w1)
// Version 2 (its own keys, as an imported tree's version has): z dropped, w added.
const v1 = treeToRows(
  toRubricTree(node("root", 1, [leaf("x", 1, 0), leaf("y", 1, 0), leaf("z", 2, 0), leaf("v", 1, 0), leaf("u", 1, 0)])),
);
const v2 = treeToRows(
  toRubricTree(node("root", 1, [leaf("x", 1, 0), leaf("y", 1, 0), leaf("v", 1, 0), leaf("u", 1, 0), leaf("w", 1, 0)])),
);
const keyIn = (rows: typeof v1, id: string) => rows.find((r) => r.nodeId === id)!.key;

function grading(
  rows: typeof v1,
  verdicts: Record<string, [score: number, valid: boolean]>,
  overrides: Record<string, number> = {},
): ComparisonInput {
  return {
    rows,
    verdicts: Object.entries(verdicts).map(([id, [score, valid]]) => ({
      nodeKey: keyIn(rows, id),
      score,
      valid,
      explanation: `said ${score} on ${id}`,
      judgeMetadata: null,
    })),
    overrides: Object.entries(overrides).map(([id, newScore]) => ({ nodeKey: keyIn(rows, id), newScore })),
  };
}

describe("comparing two gradings of one submission", () => {
  it("matches leaves across versions by their ids, puts differences first, then one-sided leaves, then agreement; root scores by the one aggregation", () => {
    // A: x overridden 1 → 0; u's verdict invalid (counts 0).
    const a = grading(v1, { x: [1, true], y: [0, true], z: [1, true], v: [1, true], u: [0, false] }, { x: 0 });
    const b = grading(v2, { x: [1, true], y: [1, true], v: [1, true], u: [0, true], w: [0, true] });
    const result = compareGradings(a, b);
    expect(result.leaves.map((l) => [l.nodeId, l.status])).toEqual([
      ["x", "differs"],
      ["y", "differs"],
      ["u", "differs"],
      ["z", "only-a"],
      ["w", "only-b"],
      ["v", "same"],
    ]);
    expect(result.counts).toEqual({ differs: 3, "only-a": 1, "only-b": 1, same: 1 });
    const x = result.leaves[0];
    expect(x.a).toMatchObject({
      key: keyIn(v1, "x"),
      score: 0,
      verdictScore: 1,
      overridden: true,
      explanation: "said 1 on x",
    });
    expect(x.b).toMatchObject({ key: keyIn(v2, "x"), score: 1, verdictScore: 1, overridden: false });
    expect(result.leaves.find((l) => l.nodeId === "u")!.a).toMatchObject({ score: 0, valid: false });
    expect(result.leaves.find((l) => l.nodeId === "z")!.b).toBeNull();
    // Roots, by hand: A = (0·1 + 0·1 + 1·2 + 1·1 + 0·1) / 6 = 3/6; B = (1 + 1 + 1 + 0 + 0) / 5.
    expect(result.rootA).toBeCloseTo(0.5, 12);
    expect(result.rootB).toBeCloseTo(0.6, 12);
  });

  it("two gradings of the same version match by key; identical gradings have no differences", () => {
    const a = grading(v1, { x: [1, true], y: [0, true], z: [1, true], v: [1, true], u: [1, true] });
    const result = compareGradings(a, a);
    expect(result.counts).toEqual({ differs: 0, "only-a": 0, "only-b": 0, same: 5 });
    expect(result.leaves.every((l) => l.a!.key === l.b!.key)).toBe(true);
    expect(result.rootA).toBe(result.rootB);
  });
});
