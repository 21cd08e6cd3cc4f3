import "server-only";
import type { Store } from "@/db/client";
import { getRubricVersion } from "@/db/queries/rubric-versions";
import { getDeletedNodeKeys, getLiveNodeRows, lockRubricById } from "@/db/queries/rubrics";
import { AppError } from "@/lib/errors";
import type { OperationResult } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { planVersionRestore } from "@/lib/rubric/version-restore";
import { announceRubricRevision } from "@/server/live/rubric-feed";
import { applyOperationInTransaction } from "./apply-rubric-operation";
import { getRubricRowsAtRevision } from "./rubric-at-revision";
import { requireRubric } from "./read-rubric";

const NO_RUBRIC = "The paper has no rubric";

/** Makes the live tree equal to a saved version, as one undoable batch operation. */
export async function restoreRubricVersion(store: Store, input: { paperId: string; versionId: string; userId: string | null }): Promise<OperationResult> {
  const rubric = await requireRubric(store.db, input.paperId, NO_RUBRIC);
  const version = await getRubricVersion(store.db, rubric.id, input.versionId);
  if (!version) throw new AppError("not_found", "No such version of this rubric");
  return restoreRubricRows(store, { paperId: input.paperId, rubricId: rubric.id, userId: input.userId, rows: version.nodes, what: "this version" });
}

/** Makes the live tree equal to the tree as of `revision` (rebuilt from the log). */
export async function restoreRubricRevision(store: Store, input: { paperId: string; revision: number; userId: string | null }): Promise<OperationResult> {
  const rubric = await requireRubric(store.db, input.paperId, NO_RUBRIC);
  const rows = await getRubricRowsAtRevision(store.db, rubric.id, input.revision);
  return restoreRubricRows(store, { paperId: input.paperId, rubricId: rubric.id, userId: input.userId, rows, what: `revision ${input.revision}` });
}

/**
 * Makes the live tree equal to `rows` as one batch operation, so it is logged, followed live and
 * undone like any edit. The one path for every restore of a whole tree; `what` names the target
 * in messages ("this version").
 */
async function restoreRubricRows(
  store: Store,
  input: { paperId: string; rubricId: string; rows: readonly NodeRow[]; what: string; userId: string | null },
): Promise<OperationResult> {
  if (input.rows.length === 0) throw new AppError("conflict", `The rubric was empty at ${input.what}: there is nothing to restore`);
  const result = await store.db.transaction(async (tx) => {
    const rubric = await lockRubricById(tx, input.rubricId, "update");
    const live = await getLiveNodeRows(tx, input.rubricId);
    const deletedKeys = await getDeletedNodeKeys(tx, input.rubricId);
    const op = planVersionRestore({ live, deletedKeys, version: input.rows });
    if (!op) throw new AppError("conflict", `The live rubric already equals ${input.what}`);
    return applyOperationInTransaction(tx, {
      paperId: input.paperId,
      userId: input.userId,
      request: { clientOpId: crypto.randomUUID(), baseRevision: rubric.revision, op },
    });
  });
  await announceRubricRevision(store, input.paperId, result.revision);
  return result;
}
