import "server-only";
import type { Executor } from "@/db/client";
import { countNodeRows, deleteNodeRows, insertNodeRows, insertRubricOperation, lockOrCreateRubric, setRubricRevision } from "@/db/queries/rubrics";
import { treeToRows } from "@/lib/rubric/tree-rows";
import type { RubricNode } from "@/lib/rubric/types";
import { returnToDraftAfterChange } from "./return-to-draft";

export interface ReplaceRubricResult {
  rubricId: string;
  revision: number;
  nodeCount: number;
  replaced: boolean;
}

/**
 * Replaces a paper's rubric tree as one new revision, inside the caller's transaction (an import
 * also writes the paper; the caller announces the revision once it is committed). The import
 * operation in the log carries the whole tree, so the tree it replaced stays in history (see
 * getRubricTreeAtRevision) and a failure leaves the old tree untouched.
 */
export async function replaceRubricTree(
  tx: Executor,
  input: { paperId: string; tree: RubricNode; userId: string | null; source: string },
): Promise<ReplaceRubricResult> {
  const rows = treeToRows(input.tree);
  // Row lock: concurrent imports and edits of one rubric take turns on the revision counter.
  const rubric = await lockOrCreateRubric(tx, input.paperId);
  const previousNodes = await countNodeRows(tx, rubric.id);
  const revision = rubric.revision + 1;
  await returnToDraftAfterChange(tx, { ...rubric, revision }, input);
  await deleteNodeRows(tx, rubric.id);
  await insertNodeRows(tx, rubric.id, rows);
  await setRubricRevision(tx, rubric.id, revision);
  await insertRubricOperation(tx, {
    rubricId: rubric.id,
    revision,
    userId: input.userId,
    kind: "import",
    // The keys (in pre-order) let the edits after the import, which name nodes by key, be replayed.
    payload: { source: input.source, nodeCount: rows.length, tree: input.tree, keys: rows.map((r) => r.key) },
  });
  return { rubricId: rubric.id, revision, nodeCount: rows.length, replaced: previousNodes > 0 };
}
