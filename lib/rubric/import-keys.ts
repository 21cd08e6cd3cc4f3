/**
 * Imports logged before their payload carried the node keys hold only the tree, so the edits after
 * them (which name nodes by key) could not be replayed. While such an import is still the latest
 * one, its rows are all still stored (soft deletes keep them), and only moves changed where they
 * hang: undoing every later move with the inverses in the log puts each row back where the import
 * put it, and the import's order among siblings is the order of its positions. Pure.
 */
import type { RubricOperation, SimpleOperation } from "./operations";
import { compareSiblings } from "./tree-rows";
import type { RubricNode } from "./types";

export interface StoredPlacement {
  key: string;
  parentKey: string | null;
  position: string;
}

const flatten = (op: RubricOperation): SimpleOperation[] => (op.kind === "batch" ? op.ops : [op]);

/**
 * The keys of the import's nodes in the pre-order of `tree`, or null when the stored rows do not
 * have its shape. `later` are the operations logged after the import (oldest first) with their
 * inverses; `stored` are all rows of the rubric now, deleted ones included.
 */
export function recoverImportKeys(
  tree: RubricNode,
  stored: readonly StoredPlacement[],
  later: readonly { op: RubricOperation; inverse: RubricOperation }[],
): string[] | null {
  const created = new Set<string>();
  for (const { op } of later)
    for (const o of flatten(op)) if (o.kind === "create") for (const n of o.nodes) created.add(n.key);
  const placement = new Map<string, StoredPlacement>();
  for (const row of stored) if (!created.has(row.key)) placement.set(row.key, { ...row });
  // Newest first, each inverse in its own order: every move undone puts a node back one step.
  for (let i = later.length - 1; i >= 0; i--) {
    for (const o of flatten(later[i].inverse)) {
      if (o.kind !== "move") continue;
      for (const m of o.moves) {
        const row = placement.get(m.key);
        if (row) placement.set(m.key, { key: m.key, parentKey: m.parentKey, position: m.position });
      }
    }
  }
  const children = new Map<string | null, StoredPlacement[]>();
  for (const row of placement.values()) {
    const list = children.get(row.parentKey);
    if (list) list.push(row);
    else children.set(row.parentKey, [row]);
  }
  const roots = children.get(null) ?? [];
  if (roots.length !== 1) return null;
  const keys: string[] = [];
  // Walks the tree and the rows side by side, in pre-order and without recursion (deep trees);
  // any difference in shape means they do not match.
  const stack: [RubricNode, string][] = [[tree, roots[0].key]];
  while (stack.length > 0) {
    const [node, key] = stack.pop()!;
    keys.push(key);
    const kids = (children.get(key) ?? []).sort(compareSiblings);
    if (kids.length !== node.sub_tasks.length) return null;
    for (let i = kids.length - 1; i >= 0; i--) stack.push([node.sub_tasks[i], kids[i].key]);
  }
  return keys.length === placement.size ? keys : null;
}
