/**
 * The deleted parts of a rubric as people think of them: one entry per delete of a subtree (its
 * root is a deleted node whose parent is live, or was deleted in another revision), with what it
 * took along. A restore brings back what one delete removed, under a live parent; when the parent
 * was deleted later, those enclosing deletes have to be undone first, outermost first. Pure.
 */

export interface DeletedNode {
  key: string;
  parentKey: string | null;
  deletedRevision: number;
}

export interface DeletedSubtreeRoot<T extends DeletedNode> {
  row: T;
  /** The nodes that delete removed here, the root included. */
  nodeCount: number;
  /** Deletion roots that enclose it (its parent went later), outermost first; empty when the parent is live. */
  enclosedBy: T[];
}

/** Deletion roots of the given deleted rows (all of a rubric's), newest delete first. */
export function deletedSubtreeRoots<T extends DeletedNode>(deleted: readonly T[]): DeletedSubtreeRoot<T>[] {
  const byKey = new Map(deleted.map((r) => [r.key, r]));
  const rootCache = new Map<string, T>();
  // The root of the delete that took `row`: up while the parent went in the same revision.
  const rootOf = (row: T): T => {
    const cached = rootCache.get(row.key);
    if (cached) return cached;
    const path: T[] = [];
    let at = row;
    for (;;) {
      const hit = rootCache.get(at.key);
      if (hit) {
        at = hit;
        break;
      }
      path.push(at);
      const parent = at.parentKey === null ? undefined : byKey.get(at.parentKey);
      if (!parent || parent.deletedRevision !== at.deletedRevision || path.length > byKey.size) break;
      at = parent;
    }
    for (const r of path) rootCache.set(r.key, at);
    return at;
  };
  const counts = new Map<string, number>();
  for (const row of deleted) {
    const root = rootOf(row);
    counts.set(root.key, (counts.get(root.key) ?? 0) + 1);
  }
  const out: DeletedSubtreeRoot<T>[] = [];
  for (const [key, nodeCount] of counts) {
    const row = byKey.get(key)!;
    const enclosedBy: T[] = [];
    for (let p = row.parentKey === null ? undefined : byKey.get(row.parentKey); p && enclosedBy.length <= byKey.size;) {
      const root = rootOf(p);
      enclosedBy.unshift(root);
      p = root.parentKey === null ? undefined : byKey.get(root.parentKey);
    }
    out.push({ row, nodeCount, enclosedBy });
  }
  return out.sort((a, b) => b.row.deletedRevision - a.row.deletedRevision || (a.row.key < b.row.key ? -1 : 1));
}
