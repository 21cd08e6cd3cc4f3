import "server-only";
import type { Executor, Store } from "@/db/client";
import { insertRubricVersion, type RubricVersionItem } from "@/db/queries/rubric-versions";
import { getLiveNodeRows, getRubricByPaperId, lockRubricById } from "@/db/queries/rubrics";
import { AppError } from "@/lib/errors";

/** Saves the paper's live rubric as a named version at the current revision. */
export async function saveRubricVersion(store: Store, input: { paperId: string; name: string; userId: string | null }): Promise<RubricVersionItem> {
  const rubric = await getRubricByPaperId(store.db, input.paperId);
  if (!rubric) throw new AppError("conflict", "The paper has no rubric yet: there is nothing to save");
  return store.db.transaction((tx) => saveVersionInTransaction(tx, { rubricId: rubric.id, name: input.name, userId: input.userId }));
}

/** The live tree saved as a version inside the caller's transaction (a sign-off saves one). */
export async function saveVersionInTransaction(
  tx: Executor,
  input: { rubricId: string; name: string; userId: string | null },
): Promise<RubricVersionItem> {
  // Share lock: the revision and the rows read below belong together.
  const rubric = await lockRubricById(tx, input.rubricId, "share");
  const rows = await getLiveNodeRows(tx, input.rubricId);
  if (rows.length === 0) throw new AppError("conflict", "The rubric is empty: there is nothing to save");
  return insertRubricVersion(tx, { rubricId: input.rubricId, name: input.name, revision: rubric.revision, rows, userId: input.userId });
}
