import "server-only";
import type { Executor } from "@/db/client";
import { getDeletedNodeRows, getNodeTexts, getRevisionAuthors } from "@/db/queries/rubric-deleted";
import type { UserRef } from "@/db/queries/users";
import { deletedSubtreeRoots } from "@/lib/rubric/deleted-subtrees";

export interface DeletedSubtree {
  /** The root of what one delete removed; restore it with a `restore` operation of this key. */
  key: string;
  nodeId: string;
  requirements: string;
  /** The node it hung under, and that node's text (for "was under …"). */
  parentKey: string | null;
  parentRequirements: string | null;
  nodeCount: number;
  deletedRevision: number;
  /** From the log: when and by whom; `kind` "batch" when a version restore or an undo deleted it. */
  deletedAt: Date | null;
  deletedBy: UserRef | null;
  kind: string | null;
  /**
   * Deletes that enclose it (its parent was deleted later), outermost first: the server refuses to
   * restore under a deleted parent, so these are restored first. Empty when the parent is live.
   */
  enclosedBy: { key: string; requirements: string; deletedRevision: number }[];
}

/** What was deleted from a rubric and can be restored: one entry per deleted subtree, newest first. */
export async function listDeletedSubtrees(db: Executor, rubricId: string): Promise<DeletedSubtree[]> {
  const deleted = await getDeletedNodeRows(db, rubricId);
  if (deleted.length === 0) return [];
  const roots = deletedSubtreeRoots(deleted);
  const log = await getRevisionAuthors(db, rubricId, [...new Set(roots.map((r) => r.row.deletedRevision))]);
  const byRevision = new Map(log.map((l) => [l.revision, l]));
  const parentText = await getNodeTexts(db, rubricId, [
    ...new Set(roots.map((r) => r.row.parentKey).filter((k): k is string => k !== null)),
  ]);

  return roots.map(({ row, nodeCount, enclosedBy }) => {
    const entry = byRevision.get(row.deletedRevision);
    return {
      key: row.key,
      nodeId: row.nodeId,
      requirements: row.requirements,
      parentKey: row.parentKey,
      parentRequirements: row.parentKey === null ? null : (parentText.get(row.parentKey) ?? null),
      nodeCount,
      deletedRevision: row.deletedRevision,
      deletedAt: entry?.createdAt ?? null,
      deletedBy: entry?.user ?? null,
      kind: entry?.kind ?? null,
      enclosedBy: enclosedBy.map((e) => ({ key: e.key, requirements: e.requirements, deletedRevision: e.deletedRevision })),
    };
  });
}
