import { describe, expect, it } from "vitest";
import { buildPinnedGradedTree, type StoredVerdict } from "@/lib/grading/pinned-tree";
import { specRows, type Spec } from "@/lib/rubric/rows-fixtures.testutil";
import { rowsToTree, treeToRows } from "@/lib/rubric/tree-rows";
import { carryOver, classifyLeaves, projectScore } from "./affected-leaves";

const base: Spec = {
  key: "root",
  kids: [
    { key: "a", w: 2, kids: [{ key: "a1" }, { key: "a2", w: 3 }] },
    { key: "b", kids: [{ key: "b1" }, { key: "b2" }] },
  ],
};

function edit(spec: Spec, f: (s: Spec) => void): Spec {
  const copy = structuredClone(spec);
  f(copy);
  return copy;
}
function findIn(s: Spec, key: string): Spec {
  const stack = [s];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.key === key) return n;
    stack.push(...(n.kids ?? []));
  }
  throw new Error(key);
}

const verdict = (nodeKey: string, score: number, valid = true): StoredVerdict => ({
  nodeKey,
  score,
  valid,
  explanation: "",
  judgeMetadata: null,
});
const verdicts = [verdict("a1", 1), verdict("a2", 0.5), verdict("b1", 0), verdict("b2", 1)];

const changeOf = (impact: ReturnType<typeof classifyLeaves>) =>
  Object.fromEntries(impact.leaves.map((l) => [l.key, l.change]));

describe("classifyLeaves", () => {
  it("finds nothing to do when the rubric did not change", () => {
    const rows = specRows(base);
    const impact = classifyLeaves(rows, rows);
    expect(changeOf(impact)).toEqual({ a1: "unchanged", a2: "unchanged", b1: "unchanged", b2: "unchanged" });
    expect(impact.toGrade).toEqual([]);
    const projected = projectScore(impact, rows, verdicts);
    expect(projected.score).toBe(buildPinnedGradedTree(rows, verdicts).scores.rootScore);
  });

  it("a weight change moves the shares of the leaves below it and their siblings', and the root is recomputed at once", () => {
    const next = specRows(edit(base, (s) => (findIn(s, "a").w = 1)));
    const impact = classifyLeaves(specRows(base), next);
    expect(changeOf(impact)).toEqual({ a1: "reweighted", a2: "reweighted", b1: "reweighted", b2: "reweighted" });
    expect(impact.toGrade).toEqual([]);
    const projected = projectScore(impact, next, verdicts);
    // a = (1 + 3·0.5)/4 = 0.625, b = 0.5; root = (0.625 + 0.5)/2.
    expect(projected.score).toBe((0.625 * 1 + 0.5 * 1) / 2);
    expect(projected.min).toBe(projected.score);
    expect(projected.max).toBe(projected.score);
  });

  it("a leaf weight change leaves the other branch unchanged", () => {
    const next = specRows(edit(base, (s) => (findIn(s, "b1").w = 2)));
    expect(changeOf(classifyLeaves(specRows(base), next))).toEqual({
      a1: "unchanged",
      a2: "unchanged",
      b1: "reweighted",
      b2: "reweighted",
    });
  });

  it("a requirement or category change needs a re-grade, and the score becomes a range", () => {
    const next = specRows(
      edit(base, (s) => {
        findIn(s, "a2").req = "Something else";
        findIn(s, "b1").cat = "Execution";
      }),
    );
    const impact = classifyLeaves(specRows(base), next);
    expect(changeOf(impact)).toEqual({ a1: "unchanged", a2: "changed", b1: "changed", b2: "unchanged" });
    expect(impact.leaves.find((l) => l.key === "a2")!.reasons).toEqual(["requirements"]);
    expect(impact.leaves.find((l) => l.key === "b1")!.reasons).toEqual(["task category"]);
    expect(impact.toGrade).toEqual(["a2", "b1"]);
    const projected = projectScore(impact, next, verdicts);
    expect(projected.score).toBeNull();
    // a2 at 0: a = 1/4; at 1: a = 1. b1 at 0 or 1: b = 0.5 or 1.
    expect(projected.min).toBe((0.25 * 2 + 0.5) / 3);
    expect(projected.max).toBe((1 * 2 + 1) / 3);
  });

  it("an added leaf needs a grade and moves its siblings' shares; a removed leaf is dropped", () => {
    const next = specRows(
      edit(base, (s) => {
        findIn(s, "b").kids!.push({ key: "b3" });
        findIn(s, "a").kids = findIn(s, "a").kids!.filter((k) => k.key !== "a1");
      }),
    );
    const impact = classifyLeaves(specRows(base), next);
    expect(changeOf(impact)).toEqual({ a2: "reweighted", b1: "reweighted", b2: "reweighted", b3: "added" });
    expect(impact.removed.map((r) => r.key)).toEqual(["a1"]);
    expect(impact.counts).toEqual({ unchanged: 0, reweighted: 3, changed: 0, added: 1, removed: 1 });
    const kept = carryOver(impact, verdicts, [
      { nodeKey: "a1", newScore: 0 },
      { nodeKey: "b2", newScore: 0.25 },
    ]);
    expect(kept.verdicts.map((v) => v.nodeKey)).toEqual(["a2", "b1", "b2"]);
    expect(kept.overrides).toEqual([{ nodeKey: "b2", newScore: 0.25 }]);
  });

  it("a leaf whose children were deleted needs a grade; the children's verdicts are dropped", () => {
    const next = specRows(edit(base, (s) => delete findIn(s, "b").kids));
    const impact = classifyLeaves(specRows(base), next);
    expect(changeOf(impact)).toEqual({ a1: "unchanged", a2: "unchanged", b: "changed" });
    expect(impact.leaves.find((l) => l.key === "b")!.reasons).toContain("was not a leaf");
    expect(impact.removed.map((r) => r.key)).toEqual(["b1", "b2"]);
  });

  it("matches a graded tree's own keys to the live rubric by the path of ids", () => {
    const live = specRows(base);
    // An imported graded tree becomes a version with fresh keys.
    const graded = treeToRows(rowsToTree(live)!);
    expect(graded.some((r) => live.some((l) => l.key === r.key))).toBe(false);
    const next = specRows(edit(base, (s) => (findIn(s, "b2").req = "Changed")));
    const impact = classifyLeaves(graded, next);
    expect(changeOf(impact)).toEqual({ a1: "unchanged", a2: "unchanged", b1: "unchanged", b2: "changed" });
    expect(impact.leaves.find((l) => l.key === "a1")!.oldKey).toBe(
      graded.find((r) => r.nodeId === live.find((l) => l.key === "a1")!.nodeId)!.key,
    );
  });

  it("repeated ids among siblings are matched in order", () => {
    const spec: Spec = {
      key: "r",
      kids: [
        { key: "x", id: "same" },
        { key: "y", id: "same", req: "second" },
      ],
    };
    const live = specRows(spec);
    const graded = treeToRows(rowsToTree(live)!);
    const impact = classifyLeaves(graded, live);
    expect(changeOf(impact)).toEqual({ x: "unchanged", y: "unchanged" });
  });
});
