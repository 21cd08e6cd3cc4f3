import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/random";
import { parseRubricJson, serializeRubric } from "@/lib/rubric/paperbench";
import { readPaperBuffer, requirePaperBenchData, skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import type { RubricNode } from "@/lib/rubric/types";
import { GradingScores } from "./recompute";
import { RESOURCES_PROVIDED_CATEGORY, resourcesProvidedScore, resourcesProvidedTree } from "./resources-provided";
import type { GradedNode } from "./types";

const ACQ = RESOURCES_PROVIDED_CATEGORY;

function rubricNode(id: string, weight: number, category: string | null, children: RubricNode[] = []): RubricNode {
  return {
    id,
    requirements: id,
    weight,
    sub_tasks: children,
    task_category: children.length ? null : "Code Development",
    finegrained_task_category: category,
  };
}

function graded(node: RubricNode, scoreOf: (leaf: RubricNode) => number): GradedNode {
  return {
    ...node,
    score: node.sub_tasks.length === 0 ? scoreOf(node) : 0,
    valid_score: true,
    explanation: "",
    judge_metadata: null,
    sub_tasks: node.sub_tasks.map((c) => graded(c, scoreOf)),
  };
}

/**
 * The score by hand, straight from PaperBench's formula: recursion, the weights of acquisition
 * leaves read as 0, sums left to right from 0, a parent of weightless children 0.
 */
function handScore(node: GradedNode): number {
  if (node.sub_tasks.length === 0) return node.valid_score ? node.score : 0;
  let total = 0;
  let weighted = 0;
  for (const c of node.sub_tasks) {
    const w = c.sub_tasks.length === 0 && c.finegrained_task_category === ACQ ? 0 : c.weight;
    total += w;
    weighted += handScore(c) * w;
  }
  return total === 0 ? 0 : weighted / total;
}

function leaves<T extends { sub_tasks: T[] }>(node: T): T[] {
  return node.sub_tasks.length === 0 ? [node] : node.sub_tasks.flatMap((c) => leaves(c));
}

describe("resources provided", () => {
  const tree = rubricNode("root", 1, null, [
    rubricNode("a", 3, null, [rubricNode("a1", 1, ACQ), rubricNode("a2", 2, "Method Implementation")]),
    // Every child an acquisition leaf: the node scores 0, and still weighs 1 in the root's mean.
    rubricNode("b", 1, null, [rubricNode("b1", 1, ACQ), rubricNode("b2", 4, ACQ)]),
    // An internal node carrying the category is not a leaf: PaperBench keeps its weight.
    rubricNode("c", 2, ACQ, [rubricNode("c1", 1, "Experimental Setup")]),
  ]);

  it("zeroes only the acquisition leaves, leaving the input alone", () => {
    const { tree: out, zeroedLeaves } = resourcesProvidedTree(tree);
    expect(zeroedLeaves).toBe(3);
    expect(leaves(out).map((l) => [l.id, l.weight])).toEqual([
      ["a1", 0],
      ["a2", 2],
      ["b1", 0],
      ["b2", 0],
      ["c1", 1],
    ]);
    expect(out.sub_tasks.map((n) => n.weight)).toEqual([3, 1, 2]);
    expect(leaves(tree).map((l) => l.weight)).toEqual([1, 2, 1, 4, 1]);
  });

  it("recomputes the root with a weightless parent at 0", () => {
    const g = graded(tree, (l) => ({ a1: 1, a2: 0.5, b1: 1, b2: 1, c1: 0.25 })[l.id]!);
    const { score } = resourcesProvidedScore(g);
    // a = 0.5 (a1 weighs nothing), b = 0 (nothing weighs), c = 0.25; root = (3·0.5 + 1·0 + 2·0.25) / 6.
    expect(score).toBe((3 * 0.5 + 0 + 2 * 0.25) / 6);
    expect(GradingScores.fromTree(g).rootScore).not.toBe(score);
  });

  it.skipIf(skipWithoutData)(
    "on PaperBench's what-will-my-model-forget: 82 leaves zeroed, the export PaperBench-shaped, the root as by hand",
    () => {
      requirePaperBenchData();
      const parsed = parseRubricJson(readPaperBuffer("what-will-my-model-forget", "rubric.json").toString("utf8"));
      if (!parsed.ok) throw new Error("rubric did not parse");
      const { tree: zeroed, zeroedLeaves } = resourcesProvidedTree(parsed.tree);
      expect(zeroedLeaves).toBe(82);
      expect(
        leaves(zeroed)
          .filter((l) => l.finegrained_task_category === ACQ)
          .every((l) => l.weight === 0),
      ).toBe(true);
      // Only those weights change: the export differs from the rubric's by one weight line per such leaf that weighed something, each now `0`.
      const before = serializeRubric(parsed.tree).split("\n");
      const after = serializeRubric(zeroed).split("\n");
      expect(after.length).toBe(before.length);
      const changed = after.filter((line, i) => line !== before[i]);
      const weighing = leaves(parsed.tree).filter((l) => l.finegrained_task_category === ACQ && l.weight !== 0).length;
      expect(weighing).toBeGreaterThan(0);
      expect(changed.length).toBe(weighing);
      expect(changed.every((line) => /^\s*"weight": 0,$/.test(line))).toBe(true);

      const random = mulberry32(14);
      const g = graded(parsed.tree, () => Math.round(random() * 4) / 4);
      const { score } = resourcesProvidedScore(g);
      expect(score).toBe(handScore(g));
      expect(score).not.toBe(GradingScores.fromTree(g).rootScore);
    },
  );

  it.skipIf(skipWithoutData)("counts every paper's acquisition leaves (lca-on-the-line: 16, pinn: none)", () => {
    requirePaperBenchData();
    for (const [paper, n] of [
      ["lca-on-the-line", 16],
      ["pinn", 0],
      ["bbox", 12],
    ] as const) {
      const parsed = parseRubricJson(readPaperBuffer(paper, "rubric.json").toString("utf8"));
      if (!parsed.ok) throw new Error(`${paper} did not parse`);
      expect(resourcesProvidedTree(parsed.tree).zeroedLeaves, paper).toBe(n);
    }
  });
});
