/**
 * PaperBench's "resources provided" setting: the datasets and models are handed to the agent, so
 * the leaves of the fine-grained category "Dataset and Model Acquisition" weigh 0 and score
 * nothing either way. Mirrors `TaskNode.resources_provided()` → `zero_weight_by_category`
 * (paperbench/rubric/tasks.py): only leaves are matched, internal nodes keep their weights; the
 * usual aggregation (`recompute.ts`) then gives a parent whose children all weigh 0 the score 0.
 * Pure; iterative (deep trees); the input is not modified.
 */
import { mapTree } from "@/lib/rubric/walk";
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
  const copy = mapTree<T, T>(tree, (node) => {
    const zeroed = node.sub_tasks.length === 0 && node.finegrained_task_category === RESOURCES_PROVIDED_CATEGORY;
    if (zeroed) zeroedLeaves++;
    return { ...node, weight: zeroed ? 0 : node.weight, sub_tasks: [] };
  });
  return { tree: copy, zeroedLeaves };
}

/** The root score of a graded tree (leaf scores as they stand) under resources provided. */
export function resourcesProvidedScore(graded: GradedNode): { score: number; zeroedLeaves: number } {
  const { tree, zeroedLeaves } = resourcesProvidedTree(graded);
  return { score: GradingScores.fromTree(tree).rootScore, zeroedLeaves };
}
