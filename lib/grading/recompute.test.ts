import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import { preorder, recomputeScores } from "./graded-tree";
import { HUMAN_GRADINGS, leaf, node, parseTree, readGradingText } from "./grading-data.testutil";
import { applyOverrides, GradingInputError, GradingScores } from "./recompute";
import type { GradedNode } from "./types";
import { propertyParams } from "@/test/property";

describe("GradingScores on a small tree", () => {
  // root: a (w1) [a1 w1 = 1, a2 w3 = 0], b (w3) [b1 w1 = 1]
  const tree = recomputeScores(
    node("root", 1, [node("a", 1, [leaf("a1", 1, 1), leaf("a2", 3, 0)]), node("b", 3, [leaf("b1", 1, 1)])]),
  );

  it("recomputes the leaf's ancestors and the root at once", () => {
    const scores = GradingScores.fromTree(tree);
    expect(scores.rootScore).toBe((0 + 0.25 * 1 + 1 * 3) / 4);
    const a2 = scores.indexOfId("a2");
    const changed = scores.setLeaf(a2, 1);
    expect(changed.map((i) => scores.nodes[i].id)).toEqual(["a2", "a", "root"]);
    expect(scores.scoreOf(scores.indexOfId("a"))).toBe(1);
    expect(scores.rootScore).toBe(1);
    // b is untouched.
    expect(scores.scoreOf(scores.indexOfId("b"))).toBe(1);
    // Back to the judge's verdict.
    scores.resetLeaf(a2);
    expect(scores.rootScore).toBe(tree.score);
  });

  it("counts an invalid leaf as 0 and makes a leaf valid when a person gives a verdict", () => {
    const scores = GradingScores.fromTree(tree);
    const a1 = scores.indexOfId("a1");
    scores.setLeaf(a1, { score: 1, valid: false });
    expect(scores.scoreOf(scores.indexOfId("a"))).toBe(0);
    scores.setLeaf(a1, 1);
    expect(scores.validOf(a1)).toBe(true);
    expect(scores.scoreOf(scores.indexOfId("a"))).toBe(0.25);
  });

  it("refuses unknown ids, internal nodes and scores outside [0, 1], changing nothing", () => {
    const scores = GradingScores.fromTree(tree);
    const before = scores.rootScore;
    expect(() => scores.applyOverrides({ a1: 0, nope: 1 })).toThrow(GradingInputError);
    expect(() => scores.applyOverrides({ a1: 0, a: 1 })).toThrow(/not a leaf/);
    expect(() => scores.applyOverrides({ a1: 0, b1: 1.5 })).toThrow(/between 0 and 1/);
    expect(() => scores.setLeaf(99, 1)).toThrow(/no node at index 99/);
    expect(scores.rootScore).toBe(before);
  });

  it("applyOverrides gives a new tree with recomputed scores and leaves the input alone", () => {
    const out = applyOverrides(tree, new Map([["b1", 0]]));
    expect(out.score).toBe((0 + 0.25 * 1 + 0 * 3) / 4);
    expect(out.sub_tasks[1].score).toBe(0);
    expect(out.sub_tasks[1].sub_tasks[0].score).toBe(0);
    expect(tree.sub_tasks[1].sub_tasks[0].score).toBe(1);
    expect(out.sub_tasks[0]).toEqual(tree.sub_tasks[0]);
  });

  it("matches a full recomputation bit for bit, whatever the overrides (property)", () => {
    // Random trees with float weights, random overrides in random order.
    const treeArb = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.record({
          w: fc.double({ min: 0, max: 10, noNaN: true }),
          s: fc.constantFrom(0, 1, 0.5, 1 / 3),
          kids: fc.constant([]),
        }),
        fc.record({
          w: fc.double({ min: 0, max: 10, noNaN: true }),
          s: fc.constant(0),
          kids: fc.array(tie("node"), { minLength: 1, maxLength: 5 }),
        }),
      ),
    })).node as fc.Arbitrary<{ w: number; s: number; kids: unknown[] }>;
    type Shape = { w: number; s: number; kids: Shape[] };
    let n = 0;
    const build = (shape: Shape): GradedNode =>
      shape.kids.length === 0 ? leaf(`l${n++}`, shape.w, shape.s) : node(`n${n++}`, shape.w, shape.kids.map(build));
    fc.assert(
      fc.property(
        treeArb,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 0.25), fc.boolean()), { maxLength: 20 }),
        (shape, edits) => {
          const tree = build(shape as Shape);
          const scores = GradingScores.fromTree(tree);
          const leaves = scores.nodes.map((_, i) => i).filter((i) => scores.isLeaf(i));
          for (const [k, score, valid] of edits) scores.setLeaf(leaves[k % leaves.length], { score, valid });
          const incremental = scores.toTree();
          const full = recomputeScores(incremental);
          const a = preorder(incremental);
          const b = preorder(full);
          for (let i = 0; i < a.length; i++) expect(Object.is(a[i].score, b[i].score)).toBe(true);
        },
      ),
      propertyParams({ numRuns: 300 }),
    );
  });
});

describe.skipIf(skipWithoutData)("GradingScores on the shipped human gradings", () => {
  it("starts from the file's root score exactly, and an override and its undo come back to it", () => {
    for (const [paper, root] of Object.entries(HUMAN_GRADINGS)) {
      const scores = GradingScores.fromTree(parseTree(readGradingText(paper)));
      expect(Object.is(scores.rootScore, root)).toBe(true);
      const first = scores.nodes.findIndex((n, i) => scores.isLeaf(i) && n.score === 1);
      scores.setLeaf(first, 0);
      expect(scores.rootScore).toBeLessThan(root);
      scores.setLeaf(first, 1);
      expect(Object.is(scores.rootScore, root)).toBe(true);
    }
  });

  it("recomputes pinn (1,963 leaves) after each leaf's override exactly as a full recomputation", () => {
    const scores = GradingScores.fromTree(parseTree(readGradingText("pinn")));
    const leaves = scores.nodes.map((_, i) => i).filter((i) => scores.isLeaf(i));
    expect(leaves.length).toBe(1963);
    // Every leaf flipped, then flipped back (its speed is `npm run bench`'s grading_override_recompute_us).
    for (const i of leaves) scores.setLeaf(i, 1 - scores.scoreOf(i));
    expect(Object.is(recomputeScores(scores.toTree()).score, scores.rootScore)).toBe(true);
    for (const i of leaves) scores.setLeaf(i, 1 - scores.scoreOf(i));
    const tree = scores.toTree();
    expect(Object.is(recomputeScores(tree).score, scores.rootScore)).toBe(true);
  });
});
