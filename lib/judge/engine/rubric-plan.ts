/**
 * What a run grades: the rubric (its Code-Dev view for the Code-Dev variant), walked to its leaves,
 * a node at the max depth standing for its whole subtree (a pseudo-leaf listing the subtree's
 * requirements and weights, scored in [0, 1]), each with the requirements of the nodes above it.
 */
import { toCodeDevTree } from "@/lib/rubric/code-dev";
import type { RubricNode } from "@/lib/rubric/types";
import type { JudgeRubricNode } from "../engine-contract";
import { fileCategoryOf, type FileCategory } from "./file-selection";

export interface PlannedLeaf {
  key: string;
  node: JudgeRubricNode;
  /** The requirements as the prompt shows them (a pseudo-leaf: its subtree, indented, with weights). */
  requirements: string;
  /** The category the prompt names; "Subtree" for a pseudo-leaf. */
  category: string;
  fileCategory: FileCategory;
  /** Ancestors' requirements, root first. */
  preceding: string[];
  subtree: boolean;
}

/** The tree the run grades: the rubric, or its Code Development leaves for Code-Dev (null: none). */
export function judgedTree(rubric: JudgeRubricNode, codeDev: boolean): JudgeRubricNode | null {
  // toCodeDevTree copies nodes with a spread, so the studio's `key` rides along.
  return codeDev ? (toCodeDevTree(rubric as unknown as RubricNode) as unknown as JudgeRubricNode | null) : rubric;
}

export function isGradedWhole(node: JudgeRubricNode, depth: number, maxDepth: number | null): boolean {
  return node.sub_tasks.length === 0 || (maxDepth !== null && depth >= maxDepth);
}

/** One line per node, `| ` per level, with its weight (the pseudo-leaf's requirements). */
export function subtreeRequirements(node: JudgeRubricNode): string {
  const lines: string[] = [];
  const walk = (n: JudgeRubricNode, level: number) => {
    lines.push(`${"| ".repeat(level)}${n.requirements} (weight: ${n.weight})`);
    for (const c of n.sub_tasks) walk(c, level + 1);
  };
  walk(node, 0);
  return lines.join("\n");
}

/** The leaves and pseudo-leaves to grade, in pre-order. */
export function planLeaves(tree: JudgeRubricNode, maxDepth: number | null): PlannedLeaf[] {
  const out: PlannedLeaf[] = [];
  const walk = (node: JudgeRubricNode, depth: number, preceding: string[]) => {
    if (isGradedWhole(node, depth, maxDepth)) {
      const subtree = node.sub_tasks.length > 0;
      out.push({
        key: node.key,
        node,
        requirements: subtree ? subtreeRequirements(node) : node.requirements,
        category: subtree ? "Subtree" : (node.task_category ?? "Uncategorised"),
        fileCategory: subtree ? "Subtree" : fileCategoryOf(node.task_category),
        preceding,
        subtree,
      });
      return;
    }
    const below = [...preceding, node.requirements];
    for (const child of node.sub_tasks) walk(child, depth + 1, below);
  };
  walk(tree, 0, []);
  return out;
}

/** A rubric file's tree as the engine reads it; keys are pre-order indexes (ids may repeat). */
export function rubricToJudgeTree(rubric: RubricNode): JudgeRubricNode {
  let next = 0;
  const convert = (node: RubricNode): JudgeRubricNode => ({
    key: String(next++),
    id: node.id,
    requirements: node.requirements,
    weight: node.weight,
    task_category: node.task_category,
    finegrained_task_category: node.finegrained_task_category,
    sub_tasks: node.sub_tasks.map(convert),
  });
  return convert(rubric);
}
