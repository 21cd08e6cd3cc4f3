/**
 * PaperBench's rubric walks that decide what a leaf's prompt shows (paperbench/rubric/tasks.py and
 * judge/simple.py), over the engine's tree. Nodes are found by `id` as PaperBench finds them, so a
 * duplicated id behaves as there: every node with that id gets the preceding criteria of the first
 * one in pre-order (`find_path_to_descendant`), and a sibling's position is the first sibling
 * carrying its id (`list.index`). Pure.
 */
import type { JudgeRubricNode } from "../engine-contract";

/**
 * `get_prior_nodes` for many nodes of one tree: the first path to each id is found in one walk
 * (what `find_path_to_descendant` would return for it), so a rubric of thousands of leaves is not
 * walked once per leaf.
 */
export function priorNodesFinder(
  root: JudgeRubricNode,
  maxPriorNodes: number | null = null,
): (nodeId: string) => JudgeRubricNode[] {
  const firstPath = new Map<string, JudgeRubricNode[]>();
  const path: JudgeRubricNode[] = [];
  const stack: { node: JudgeRubricNode; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    path.length = depth;
    path.push(node);
    if (!firstPath.has(node.id)) firstPath.set(node.id, [...path]);
    for (let i = node.sub_tasks.length - 1; i >= 0; i--) stack.push({ node: node.sub_tasks[i], depth: depth + 1 });
  }
  return (nodeId) => priorFromPath(nodeId, root, firstPath.get(nodeId) ?? null, maxPriorNodes);
}

function priorFromPath(
  nodeId: string,
  root: JudgeRubricNode,
  path: JudgeRubricNode[] | null,
  maxPriorNodes: number | null,
): JudgeRubricNode[] {
  if (nodeId === root.id) return [];
  if (path === null) throw new Error(`Task with id '${nodeId}' not found.`);
  let required: JudgeRubricNode[] = [root];
  for (let i = 1; i < path.length; i++) {
    const node = path[i];
    const siblings = path[i - 1].sub_tasks;
    const index = siblings.findIndex((s) => s.id === node.id);
    required.push(...siblings.slice(0, index + 1));
  }
  required = required.slice(0, -1);
  if (maxPriorNodes !== null && maxPriorNodes !== 0) required = required.slice(-maxPriorNodes);
  return required;
}

/** `reduce_to_category(node, "Code Development")` (`TaskNode.code_only()`), keys kept. */
export function reduceToCategory(node: JudgeRubricNode, category: string): JudgeRubricNode | null {
  if (node.sub_tasks.length === 0) return node.task_category === category ? node : null;
  const kept = node.sub_tasks.map((c) => reduceToCategory(c, category)).filter((c): c is JudgeRubricNode => c !== null);
  if (kept.length === 0 && node.task_category !== category) return null;
  // set_sub_tasks: a node with children has no category; with none it keeps its own.
  return { ...node, sub_tasks: kept, task_category: kept.length > 0 ? null : node.task_category };
}

/**
 * The tree PaperBench's `run_judge` grades for Code-Dev: `code_only()`, else the root as a single
 * "Code Development" leaf (`set_task_category(...).set_sub_tasks([])`).
 */
export function codeOnlyTree(rubric: JudgeRubricNode): JudgeRubricNode {
  return (
    reduceToCategory(rubric, "Code Development") ?? { ...rubric, task_category: "Code Development", sub_tasks: [] }
  );
}

/** SimpleJudge.grade_subtree's `build_requirements_string`: one line per node, `| ` per level, weight. */
export function buildRequirementsString(node: JudgeRubricNode, depth = 0): string {
  let out = `${"| ".repeat(depth)}${node.requirements} (weight: ${pyNumber(node.weight)})\n`;
  for (const child of node.sub_tasks) out += buildRequirementsString(child, depth + 1);
  return out;
}

/** How Python's `str()`/f-string shows a rubric weight (an int as `3`, a float as `0.5` or `2.0`). */
export function pyNumber(n: number, isFloat = false): string {
  if (Number.isInteger(n)) return isFloat ? `${n}.0` : String(n);
  return String(n);
}
