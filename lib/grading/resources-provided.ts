/**
 * PaperBench's "resources provided" setting: the datasets and models are handed to the agent, so
 * the leaves of the fine-grained category "Dataset and Model Acquisition" weigh 0 and score
 * nothing either way. Mirrors `TaskNode.resources_provided()` → `zero_weight_by_category`
 * (paperbench/rubric/tasks.py): only leaves are matched, internal nodes keep their weights; the
 * usual aggregation (`recompute.ts`) then gives a parent whose children all weigh 0 the score 0.
 * Pure; iterative (deep trees); the input is not modified.
 */
import { GradingScores } from "./recompute";
import type { GradedNode } from "./types";

export const RESOURCES_PROVIDED_CATEGORY = "Dataset and Model Acquisition";

interface CategorisedNode<T> {
  weight: number;
  finegrained_task_category: string | null;
  sub_tasks: T[];
}

/** A copy of `tree` with the weight of every "Dataset and Model Acquisition" leaf set to 0, and how many such leaves there are. */
export function resourcesProvidedTree<T extends CategorisedNode<T>>(tree: T): { tree: T; zeroedLeaves: number } {
  let zeroedLeaves = 0;
  const copyOf = new Map<T, T>();
  // Post-order: children are copied before their parent.
  const stack: { node: T; expanded: boolean }[] = [{ node: tree, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const { node } = top;
    if (!top.expanded && node.sub_tasks.length > 0) {
      top.expanded = true;
      for (let i = node.sub_tasks.length - 1; i >= 0; i--) stack.push({ node: node.sub_tasks[i], expanded: false });
      continue;
    }
    stack.pop();
    if (node.sub_tasks.length === 0) {
      const zeroed = node.finegrained_task_category === RESOURCES_PROVIDED_CATEGORY;
      if (zeroed) zeroedLeaves++;
      copyOf.set(node, { ...node, weight: zeroed ? 0 : node.weight, sub_tasks: [] });
    } else {
      copyOf.set(node, { ...node, sub_tasks: node.sub_tasks.map((c) => copyOf.get(c)!) });
    }
  }
  return { tree: copyOf.get(tree)!, zeroedLeaves };
}

/** The root score of a graded tree (leaf scores as they stand) under resources provided. */
export function resourcesProvidedScore(graded: GradedNode): { score: number; zeroedLeaves: number } {
  const { tree, zeroedLeaves } = resourcesProvidedTree(graded);
  return { score: GradingScores.fromTree(tree).rootScore, zeroedLeaves };
}
