/**
 * What a run grades: the rubric (its Code-Dev view for the Code-Dev variant, or the root as one
 * Code Development leaf when it has none, as PaperBench's run_judge does), walked to its leaves
 * with the root at depth 1 (PaperBench's `max_depth`), a non-leaf at the max depth standing for its
 * whole subtree (a pseudo-leaf listing the subtree's requirements and weights, scored in [0, 1]),
 * each with PaperBench's preceding criteria (`get_prior_nodes`).
 */
import { toCodeDevTree } from "@/lib/rubric/code-dev";
import type { RubricNode } from "@/lib/rubric/types";
import type { JudgeRubricNode } from "../engine-contract";
import { priorNodesFinder } from "../paperbench/rubric-walk";
import { fileCategoryOf, type FileCategory } from "./file-selection";

export interface PlannedLeaf {
  key: string;
  node: JudgeRubricNode;
  /** The requirements as the prompt shows them (a pseudo-leaf: its subtree, indented, with weights). */
  requirements: string;
  /** The category the prompt names; "Subtree" for a pseudo-leaf. */
  category: string;
  fileCategory: FileCategory;
  /** PaperBench's preceding criteria (ancestors, preceding siblings and preceding siblings of ancestors), root first. */
  preceding: string[];
  subtree: boolean;
}

/**
 * The tree the run grades: the rubric, or for Code-Dev its Code Development leaves — and with
 * none, the root as a single "Code Development" leaf (PaperBench's `code_only() or
 * root.set_task_category("Code Development").set_sub_tasks([])`).
 */
export function judgedTree(rubric: JudgeRubricNode, codeDev: boolean): JudgeRubricNode {
  if (!codeDev) return rubric;
  // toCodeDevTree copies nodes with a spread, so the studio's `key` rides along.
  const reduced = toCodeDevTree(rubric as unknown as RubricNode) as unknown as JudgeRubricNode | null;
  return reduced ?? { ...rubric, task_category: "Code Development", sub_tasks: [] };
}

/** The depth of the root: PaperBench's `Judge.grade` starts at 1, so `max_depth=1` grades the root whole. */
export const ROOT_DEPTH = 1;

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
  const priorOf = priorNodesFinder(tree);
  const walk = (node: JudgeRubricNode, depth: number) => {
    if (isGradedWhole(node, depth, maxDepth)) {
      const subtree = node.sub_tasks.length > 0;
      out.push({
        key: node.key,
        node,
        requirements: subtree ? subtreeRequirements(node) : node.requirements,
        category: subtree ? "Subtree" : (node.task_category ?? "Uncategorised"),
        fileCategory: subtree ? "Subtree" : fileCategoryOf(node.task_category),
        preceding: priorOf(node.id).map((n) => n.requirements),
        subtree,
      });
      return;
    }
    for (const child of node.sub_tasks) walk(child, depth + 1);
  };
  walk(tree, ROOT_DEPTH);
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
