/**
 * The pinned rubric (pre-order rows of the graded view) as the judge engine reads it, and what a
 * run grades: each leaf, or, at the max depth, a node as one pseudo-leaf whose verdict the studio
 * stores on every leaf below it (so the review page, the aggregate and JudgeEval read it like any
 * other grading). Pure.
 */
import type { NodeRow } from "@/lib/rubric/tree-rows";
import type { JudgeRubricNode } from "./engine-contract";
import { judgedTree, planLeaves } from "./engine/rubric-plan";

export function toJudgeRubric(rows: readonly NodeRow[]): JudgeRubricNode {
  const nodes = new Map<string, JudgeRubricNode>();
  let root: JudgeRubricNode | null = null;
  for (const row of rows) {
    const node: JudgeRubricNode = {
      key: row.key,
      id: row.nodeId,
      requirements: row.requirements,
      weight: row.weight,
      task_category: row.taskCategory,
      finegrained_task_category: row.finegrainedTaskCategory,
      sub_tasks: [],
    };
    nodes.set(row.key, node);
    if (row.parentKey === null) root = node;
    else nodes.get(row.parentKey)?.sub_tasks.push(node);
  }
  if (!root) throw new Error("The pinned rubric has no root");
  return root;
}

/** One thing the engine grades: a leaf (`leafKeys` is itself) or a subtree at the max depth (its leaves). */
export interface GradedUnit {
  key: string;
  leafKeys: string[];
}

/** What a run grades, in pre-order (the engine's own plan): leaves, and non-leaves at `maxDepth` (root = 1, PaperBench's max_depth) as pseudo-leaves. */
export function gradedUnits(root: JudgeRubricNode, codeDev: boolean, maxDepth: number | null): GradedUnit[] {
  const tree = judgedTree(root, codeDev);
  return planLeaves(tree, maxDepth).map((leaf) => ({ key: leaf.key, leafKeys: leavesUnder(leaf.node) }));
}

function leavesUnder(node: JudgeRubricNode): string[] {
  const out: string[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.sub_tasks.length === 0) out.push(n.key);
    else for (let i = n.sub_tasks.length - 1; i >= 0; i--) stack.push(n.sub_tasks[i]);
  }
  return out;
}

/** Units already graded: every leaf of theirs has a verdict (a resumed run asks only the others). */
export function doneUnitKeys(units: readonly GradedUnit[], verdictKeys: ReadonlySet<string>): Set<string> {
  return new Set(units.filter((u) => u.leafKeys.every((k) => verdictKeys.has(k))).map((u) => u.key));
}
