import { describe, expect, it } from "vitest";
import { cloneGradedTree, toRubricTree, ungradedTree } from "@/lib/grading/graded-tree";
import { gradedTreeToPython } from "@/lib/grading/serialize";
import { toCodeDevTree } from "./code-dev";
import { recoverImportKeys } from "./import-keys";
import { RUBRIC_LIMITS } from "./limits";
import { lintPaperBenchRules } from "./lint";
import { pythonJsonDumps } from "./python-json";
import { effectiveShares } from "./shares";
import { buildTreeIndex } from "./tree-index";
import { rowsToTree, treeToRows } from "./tree-rows";
import type { RubricNode } from "./types";
import { validateRubricValue } from "./validate";
import { preorder, rubricStats } from "./walk";

// Far deeper than any call stack: a walker that recursed would throw RangeError here. Rubrics
// this deep can still be in a database from before operations kept to the depth limit, and every
// reader must get through them (the studio refuses to export them, see server/papers/export.ts).
const DEPTH = 20_000;

function chain(depth: number): RubricNode {
  const root: RubricNode = {
    id: crypto.randomUUID(),
    requirements: "r",
    weight: 1,
    sub_tasks: [],
    task_category: null,
    finegrained_task_category: null,
  };
  let at = root;
  for (let i = 1; i < depth; i++) {
    const node: RubricNode = {
      id: crypto.randomUUID(),
      requirements: "r",
      weight: 1,
      sub_tasks: [],
      task_category: null,
      finegrained_task_category: null,
    };
    at.sub_tasks.push(node);
    at = node;
  }
  at.task_category = "Code Development";
  return root;
}

const depthOf = (tree: { sub_tasks: readonly unknown[] }) => {
  let depth = 0;
  for (
    let node: { sub_tasks: readonly unknown[] } | undefined = tree;
    node;
    node = node.sub_tasks[0] as typeof tree | undefined
  )
    depth++;
  return depth;
};

describe(`tree walkers on a ${DEPTH.toLocaleString("en")}-deep chain`, () => {
  const tree = chain(DEPTH);

  it("rows, tree index, shares, lint, Code-Dev view and stats", () => {
    const rows = treeToRows(tree);
    expect(rows).toHaveLength(DEPTH);
    const back = rowsToTree(rows)!;
    expect(depthOf(back)).toBe(DEPTH);
    const index = buildTreeIndex(rows);
    expect(index.preorder).toHaveLength(DEPTH);
    expect(effectiveShares(index).get(rows.at(-1)!.key)).toBe(1);
    expect(Array.isArray(lintPaperBenchRules(back))).toBe(true);
    expect(depthOf(toCodeDevTree(back)!)).toBe(DEPTH);
    expect(rubricStats(back)).toEqual({ nodes: DEPTH, leaves: 1, depth: DEPTH });
    expect(preorder(back)).toHaveLength(DEPTH);
    expect(recoverImportKeys(back, rows, [])).toEqual(rows.map((r) => r.key));
  });

  it("the reader (refusing it past the depth limit, reading it whole without one)", () => {
    // The parsed JSON of such a file: plain objects (JSON.stringify itself would recurse).
    const value: unknown = tree;
    const refused = validateRubricValue(value);
    expect(refused.ok).toBe(false);
    const read = validateRubricValue(value, { ...RUBRIC_LIMITS, maxDepth: DEPTH, maxNodes: DEPTH });
    expect(read.ok && depthOf(read.tree)).toBe(DEPTH);
  });

  it("graded trees and Python-identical JSON", () => {
    const graded = ungradedTree(tree);
    expect(depthOf(cloneGradedTree(graded))).toBe(DEPTH);
    expect(depthOf(toRubricTree(graded))).toBe(DEPTH);
    const python = gradedTreeToPython(graded);
    expect(depthOf(python as unknown as RubricNode)).toBe(DEPTH);
    // indent 0: one line per item, so the text stays linear in the depth.
    const text = pythonJsonDumps(python, 0);
    expect(text.startsWith(`{\n"id": "${tree.id}"`)).toBe(true);
    expect(text.endsWith("}")).toBe(true);
  });
});
