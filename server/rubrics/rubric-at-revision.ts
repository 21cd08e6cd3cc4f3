import "server-only";
import type { Executor } from "@/db/client";
import {
  getLastImportAtOrBefore,
  getNodePlacements,
  getOperationsBetween,
  getOperationsWithInversesAfter,
  getRubricRevision,
  hasImportAfter,
} from "@/db/queries/rubric-at-revision";
import { lockRubricById } from "@/db/queries/rubrics";
import { AppError } from "@/lib/errors";
import { recoverImportKeys } from "@/lib/rubric/import-keys";
import { OperationError } from "@/lib/rubric/operations";
import { emptyReplayState, importReplayState, replayOperation, type ReplayState } from "@/lib/rubric/replay";
import { rowsToTree, type NodeRow } from "@/lib/rubric/tree-rows";
import type { RubricNode } from "@/lib/rubric/types";

/**
 * The live rows of a rubric as they were right after `revision` was applied, keys included (so a
 * diff against the live rows matches nodes by identity). Rebuilt from the log: the last import at
 * or before the revision, then every logged operation after it up to the revision, replayed.
 * Revision 0 is the empty rubric. Throws bad_request for a revision the rubric has not reached.
 */
export async function getRubricRowsAtRevision(db: Executor, rubricId: string, revision: number): Promise<NodeRow[]> {
  if (!Number.isSafeInteger(revision) || revision < 0) {
    throw new AppError("bad_request", "The revision must be a whole number ≥ 0", [{ path: "revision", message: "must be an integer >= 0" }]);
  }
  const current = await getRubricRevision(db, rubricId);
  if (current === null) throw new AppError("not_found", "No such rubric");
  if (revision > current) {
    throw new AppError("bad_request", `Revision ${revision} does not exist yet: the rubric is at revision ${current}`, [
      { path: "revision", message: `must be at most ${current}` },
    ]);
  }
  const start = await getLastImportAtOrBefore(db, rubricId, revision);
  const ops = await getOperationsBetween(db, rubricId, start?.revision ?? 0, revision);

  let state: ReplayState = emptyReplayState();
  if (start) {
    const keys = start.keys ?? (await keysOfLegacyImport(db, rubricId, start.revision, start.tree, ops.length > 0));
    state = importReplayState(start.tree, keys);
  }
  for (const { revision: at, op } of ops) {
    try {
      replayOperation(state, op, at);
    } catch (err) {
      if (!(err instanceof OperationError)) throw err;
      throw new AppError("conflict", `The history cannot be replayed at revision ${at}: ${err.message}`);
    }
  }
  return state.live;
}

/**
 * The tree as it was at a revision (the log replayed). Throws a not_found AppError when the rubric
 * was empty then, and bad_request for a revision it never had.
 */
export async function getRubricTreeAtRevision(db: Executor, rubricId: string, revision: number): Promise<RubricNode> {
  const tree = rowsToTree(await getRubricRowsAtRevision(db, rubricId, revision));
  if (!tree) throw new AppError("not_found", `The rubric was empty at revision ${revision}`);
  return tree;
}

/**
 * Keys for an import logged before imports carried them: recovered from the stored rows while this
 * import is still the latest one (lib/rubric/import-keys.ts). Once a later import replaced those
 * rows, fresh keys (undefined) still do for the import itself, but the edits after it name keys
 * that are gone, so they cannot be replayed.
 */
async function keysOfLegacyImport(
  db: Executor,
  rubricId: string,
  importRevision: number,
  tree: RubricNode,
  editsFollow: boolean,
): Promise<string[] | undefined> {
  const recovered = await db.transaction(async (tx) => {
    // Share lock: no operation lands between reading the rows and reading the log.
    await lockRubricById(tx, rubricId, "share");
    if (await hasImportAfter(tx, rubricId, importRevision)) return null; // its rows were replaced
    const stored = await getNodePlacements(tx, rubricId);
    const ops = await getOperationsWithInversesAfter(tx, rubricId, importRevision);
    return recoverImportKeys(tree, stored, ops);
  });
  if (recovered) return recovered;
  if (!editsFollow) return undefined;
  throw new AppError(
    "conflict",
    `Revision ${importRevision} was imported before imports recorded their node keys, and a later import replaced its rows: the edits after it cannot be replayed`,
  );
}
