import { generateNKeysBetween } from "fractional-indexing";
import type { RubricNode } from "./types";

/** A rubric node as stored: one row per node, ordered among siblings by a fractional index. */
export interface NodeRow {
  key: string;
  parentKey: string | null;
  position: string;
  nodeId: string;
  requirements: string;
  weight: number;
  taskCategory: string | null;
  finegrainedTaskCategory: string | null;
}

/**
 * Flattens a tree into rows in depth-first pre-order (a parent always before its children).
 * Iterative, so deep trees cannot overflow the stack.
 */
export function treeToRows(tree: RubricNode, newKey: () => string = () => crypto.randomUUID()): NodeRow[] {
  const rows: NodeRow[] = [];
  const stack: { node: RubricNode; parentKey: string | null; position: string }[] = [
    { node: tree, parentKey: null, position: generateNKeysBetween(null, null, 1)[0] },
  ];
  while (stack.length > 0) {
    const { node, parentKey, position } = stack.pop()!;
    const key = newKey();
    rows.push({
      key,
      parentKey,
      position,
      nodeId: node.id,
      requirements: node.requirements,
      weight: node.weight,
      taskCategory: node.task_category,
      finegrainedTaskCategory: node.finegrained_task_category,
    });
    const kids = node.sub_tasks;
    const positions = generateNKeysBetween(null, null, kids.length);
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], parentKey: key, position: positions[i] });
  }
  return rows;
}

/**
 * Sibling order: by fractional index, then by key, so that two clients that picked the same index
 * concurrently still see one order.
 */
export const compareSiblings = (a: Pick<NodeRow, "position" | "key">, b: Pick<NodeRow, "position" | "key">) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/**
 * Rebuilds the tree from its rows. Exactly one row must have no parent; rows whose parent is
 * missing (a deleted subtree) are left out with their descendants. Iterative (deep trees).
 */
export function rowsToTree(rows: readonly NodeRow[]): RubricNode | null {
  const children = new Map<string | null, NodeRow[]>();
  for (const row of rows) {
    const siblings = children.get(row.parentKey);
    if (siblings) siblings.push(row);
    else children.set(row.parentKey, [row]);
  }
  const roots = children.get(null) ?? [];
  if (roots.length === 0) return null;
  if (roots.length > 1) throw new Error(`A rubric has ${roots.length} root nodes; expected one`);
  const build = (row: NodeRow): RubricNode => ({
    id: row.nodeId,
    requirements: row.requirements,
    weight: row.weight,
    sub_tasks: [],
    task_category: row.taskCategory,
    finegrained_task_category: row.finegrainedTaskCategory,
  });
  const root = build(roots[0]);
  const stack: [NodeRow, RubricNode][] = [[roots[0], root]];
  while (stack.length > 0) {
    const [row, node] = stack.pop()!;
    for (const child of (children.get(row.key) ?? []).sort(compareSiblings)) {
      const built = build(child);
      node.sub_tasks.push(built);
      stack.push([child, built]);
    }
  }
  return root;
}
