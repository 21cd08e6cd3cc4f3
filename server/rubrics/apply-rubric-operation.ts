import "server-only";
import { createHash } from "node:crypto";
import type { Executor, Store } from "@/db/client";
import {
  bumpRubricRevision,
  countLiveNodes,
  findAppliedOperation,
  findTakenNodeKey,
  getNodeDepth,
  getNodeRow,
  getSubtreeHeight,
  hasLiveNodes,
  isAncestorNode,
  isUniqueViolation,
  restoreSubtree,
  setNodePlacement,
  softDeleteSubtree,
  updateNodeFields,
} from "@/db/queries/rubric-operations";
import { getLintDismissalReason, setLintDismissal } from "@/db/queries/lint-dismissals";
import { insertNodeRows, insertRubricOperation } from "@/db/queries/rubrics";
import { runOperationRulesAsync, type AsyncRuleRows } from "@/lib/rubric/operation-rules";
import { AppError } from "@/lib/errors";
import { isLintOperation, OperationError, type OperationRequest, type OperationResult, type RubricOperation } from "@/lib/rubric/operations";
import { announceRubricRevision } from "@/server/live/rubric-feed";
import { returnToDraftAfterChange } from "./return-to-draft";

export interface ApplyOperationInput {
  paperId: string;
  userId: string | null;
  request: OperationRequest;
}

/**
 * Applies one operation to a paper's rubric in one transaction and tells everyone following the
 * rubric. The rubric row is locked, the operation touches only the rows it changes (by the rules
 * of lib/rubric/operation-rules.ts), the revision is bumped and the operation is logged with its
 * inverse (which the caller gets back for undo). A retried request (same client op id) is answered
 * from the log without applying it again. A refused operation throws OperationError and leaves
 * everything as it was.
 */
export async function applyRubricOperation(store: Store, input: ApplyOperationInput): Promise<OperationResult> {
  const result = await applyOperationOnce(store.db, input);
  const { userId, request } = input;
  const by = userId && request.editorSession ? { userId, editorSession: request.editorSession } : undefined;
  await announceRubricRevision(store, input.paperId, result.revision, by);
  return result;
}

async function applyOperationOnce(db: Executor, input: ApplyOperationInput): Promise<OperationResult> {
  try {
    return await db.transaction((tx) => applyOperationInTransaction(tx, input));
  } catch (err) {
    // A retried request: its client op id is already in the log (the unique index said so).
    // A retry may also be refused (a create of keys that now exist, a delete of nodes already
    // deleted): it is still a retry when the log has its client op id.
    const previous =
      isUniqueViolation(err) || err instanceof OperationError ? await findAppliedOperation(db, input.paperId, input.request.clientOpId) : null;
    if (!previous) throw err;
    const { requestHash, ...result } = previous;
    // Operations logged before requests were fingerprinted have no hash: they answer as retries.
    if (requestHash !== undefined && requestHash !== fingerprint(input.request.op)) {
      const message = `was already used for a different operation (revision ${result.revision}): a retry sends the same operation, a new operation needs a new id`;
      throw new AppError("conflict", `clientOpId "${input.request.clientOpId}" ${message}`, [{ path: "clientOpId", message }]);
    }
    return result;
  }
}

/** The operation applied and logged inside the caller's transaction (a restore plans and applies in one); nothing is announced. */
export async function applyOperationInTransaction(tx: Executor, input: ApplyOperationInput): Promise<OperationResult> {
  const { request } = input;
  // Bumping the revision locks the rubric row: operations on one rubric take turns.
  const rubric = await bumpRubricRevision(tx, input.paperId);
  const current = rubric.revision - 1;
  if (request.baseRevision > current) {
    // A client cannot have seen a revision the rubric has not reached: its state is not this rubric's.
    const message = `is ${request.baseRevision}, ahead of the rubric's revision ${current}: reload the rubric`;
    throw new AppError("conflict", `baseRevision ${message}`, [{ path: "baseRevision", message }]);
  }
  // A lint dismissal changes no node: a signed-off rubric stays signed off.
  if (!isLintOperation(request.op)) await returnToDraftAfterChange(tx, rubric, input);
  const { inverse, applied, merged } = await runOperationRulesAsync(databaseRows(tx, rubric.id, input.userId), request.op, rubric.revision);
  // The log keeps the operation as applied (merged texts included): followers replay it.
  await insertRubricOperation(tx, {
    rubricId: rubric.id,
    revision: rubric.revision,
    clientOpId: request.clientOpId,
    userId: input.userId,
    kind: request.op.kind,
    payload: {
      op: applied,
      inverse,
      baseRevision: request.baseRevision,
      requestHash: fingerprint(request.op),
      ...(merged ? { merged: true } : {}),
    },
  });
  return { revision: rubric.revision, inverse, ...(merged ? { merged: true as const } : {}) };
}

/**
 * What a retry must repeat: the operation as the client sent it (the log keeps the operation as
 * applied, which a merge changes). zod's parse gives the keys in schema order, so equal requests
 * give equal JSON.
 */
function fingerprint(op: RubricOperation): string {
  return createHash("sha256").update(JSON.stringify(op)).digest("base64url");
}

/** The rubric's rows in the database, as the operation rules ask for them. */
function databaseRows(tx: Executor, rubricId: string, userId: string | null): AsyncRuleRows {
  return {
    row: (key) => getNodeRow(tx, rubricId, key),
    takenKey: (keys) => findTakenNodeKey(tx, rubricId, keys),
    hasLiveNodes: () => hasLiveNodes(tx, rubricId),
    liveNodeCount: () => countLiveNodes(tx, rubricId),
    depth: (key) => getNodeDepth(tx, rubricId, key),
    height: (key) => getSubtreeHeight(tx, rubricId, key),
    isAncestor: (ancestor, key) => isAncestorNode(tx, rubricId, ancestor, key),
    update: (key, fields) => updateNodeFields(tx, rubricId, key, fields),
    insert: (nodes) => insertNodeRows(tx, rubricId, nodes),
    place: (key, parentKey, position) => setNodePlacement(tx, rubricId, key, parentKey, position),
    deleteSubtree: (key, revision) => softDeleteSubtree(tx, rubricId, key, revision),
    restoreSubtree: (key, deletedRevision) => restoreSubtree(tx, rubricId, key, deletedRevision),
    dismissal: (code, key) => getLintDismissalReason(tx, rubricId, code, key),
    setDismissal: (code, key, reason, revision) => setLintDismissal(tx, { rubricId, code, key, reason, revision, userId }),
  };
}
