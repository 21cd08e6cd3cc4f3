/** Tree walking and JSON paths for PaperBench trees (rubrics and graded trees). Pure; no Node built-ins. */
import type { RubricNode, RubricStats } from "./types";

/** The path of the root node. */
export const ROOT_PATH = "(root)";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `parent.key` (or `key` under the root; `parent["odd key"]` when not an identifier). */
export function childKeyPath(parent: string, key: string): string {
  if (!IDENTIFIER.test(key)) return `${parent === ROOT_PATH ? "" : parent}[${JSON.stringify(key)}]`;
  return parent === ROOT_PATH ? key : `${parent}.${key}`;
}

/** `parent[index]` (`[index]` under the root). */
export function childIndexPath(parent: string, index: number): string {
  return `${parent === ROOT_PATH ? "" : parent}[${index}]`;
}

/** Path of the `i`-th child of the node at `parent`: `parent.sub_tasks[i]`. */
export function subTaskPath(parent: string, index: number): string {
  return parent === ROOT_PATH ? `sub_tasks[${index}]` : `${parent}.sub_tasks[${index}]`;
}

/** A node of any PaperBench tree: a rubric node, a graded node. */
export interface TreeNode<T> {
  sub_tasks: readonly T[];
}

export type TreeVisitor<T> = (node: T, path: string, depth: number, parent: T | null) => void;
export type RubricVisitor = TreeVisitor<RubricNode>;

/**
 * Depth-first pre-order walk (the order of the file, and the order PaperBench resolves ids in) of
 * a rubric or a graded tree. Iterative, so deep trees cannot overflow the stack. `depth` is 1 for
 * the root.
 */
export function walkRubric<T extends TreeNode<T>>(tree: T, visit: TreeVisitor<T>): void {
  const stack: { node: T; path: string; depth: number; parent: T | null }[] = [
    { node: tree, path: ROOT_PATH, depth: 1, parent: null },
  ];
  while (stack.length > 0) {
    const { node, path, depth, parent } = stack.pop()!;
    visit(node, path, depth, parent);
    const kids = node.sub_tasks;
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push({ node: kids[i], path: subTaskPath(path, i), depth: depth + 1, parent: node });
    }
  }
}

/** Every node in depth-first pre-order (the order of the file; PaperBench resolves ids in it). */
export function preorder<T extends TreeNode<T>>(tree: T): T[] {
  const out: T[] = [];
  const stack: T[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    for (let i = node.sub_tasks.length - 1; i >= 0; i--) stack.push(node.sub_tasks[i]);
  }
  return out;
}

/** The JSON path of every node, in pre-order (`(root)`, `sub_tasks[0]`, `sub_tasks[0].sub_tasks[1]`, …). */
export function preorderPaths<T extends TreeNode<T>>(tree: T): string[] {
  const out: string[] = [];
  walkRubric(tree, (_node, path) => out.push(path));
  return out;
}

/** Nodes, leaves and depth of a tree (a root alone has depth 1). */
export function rubricStats<T extends TreeNode<T>>(tree: T): RubricStats {
  let nodes = 0;
  let leaves = 0;
  let depth = 0;
  const stack: [T, number][] = [[tree, 1]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    nodes++;
    if (d > depth) depth = d;
    if (node.sub_tasks.length === 0) leaves++;
    for (const child of node.sub_tasks) stack.push([child, d + 1]);
  }
  return { nodes, leaves, depth };
}

/**
 * A tree of the same shape, each node made by `make` from the node it copies. `make` returns the
 * node with an empty `sub_tasks`, which is filled with the made children in order. Iterative, so
 * deep trees cannot overflow the stack.
 */
export function mapTree<S extends TreeNode<S>, T extends { sub_tasks: T[] }>(tree: S, make: (node: S) => T): T {
  const root = make(tree);
  const stack: [S, T][] = [[tree, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    for (const child of from.sub_tasks) {
      const made = make(child);
      to.sub_tasks.push(made);
      stack.push([child, made]);
    }
  }
  return root;
}
