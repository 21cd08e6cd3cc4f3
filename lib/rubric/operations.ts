import { z } from "zod";
import { presenceSessionSchema } from "@/lib/live/presence-schemas";
import { text } from "@/lib/text";
import { maxChars, problemsSentence, zodProblems } from "@/lib/validation/problem-words";
import { RUBRIC_LIMITS } from "./limits";
import { DISMISSABLE_CODES } from "./lint-dismissals";

/**
 * Rubric operations: every change to a live rubric is one of these, sent with a client operation
 * id and the revision it was based on (DESIGN.md, co-editing model). Shared by the browser (which
 * applies them optimistically) and the server (which applies them in one transaction, bumps the
 * revision and logs them). Nodes are addressed by their internal `key`, never the PaperBench `id`.
 */

const key = z.uuid("must be a node key (uuid)");
// fractional-indexing keys: base62 digits, compared byte-wise.
const position = z.string().regex(/^[0-9A-Za-z]{1,200}$/, "must be a fractional index key");

export const nodeFieldsSchema = z.object({
  nodeId: text().min(1, "must not be empty").max(200, maxChars(200)),
  requirements: text().max(RUBRIC_LIMITS.maxRequirementsLength, maxChars(RUBRIC_LIMITS.maxRequirementsLength)),
  weight: z.number({ error: "must be a number >= 0" }).finite("must be a number >= 0").min(0, "must be a number >= 0"),
  taskCategory: text().max(200).nullable(),
  finegrainedTaskCategory: text().max(200).nullable(),
});
export type NodeFields = z.output<typeof nodeFieldsSchema>;

// parentKey null creates the root, which only an empty rubric accepts.
export const newNodeSchema = nodeFieldsSchema.extend({ key, parentKey: key.nullable(), position });
export type NewNode = z.output<typeof newNodeSchema>;

export const nodePlacementSchema = z.object({ key, parentKey: key, position });
export type NodePlacement = z.output<typeof nodePlacementSchema>;

const createOp = z.object({
  kind: z.literal("create"),
  // One node, or a whole subtree in pre-order (duplicate): the first node's parent exists in the
  // rubric; every later node's parent is an earlier node of the list.
  nodes: z.array(newNodeSchema).min(1).max(RUBRIC_LIMITS.maxNodes),
});
const updateOp = z.object({
  kind: z.literal("update"),
  key,
  fields: nodeFieldsSchema.partial().refine((f) => Object.keys(f).length > 0, "must change at least one field"),
  // The requirement text the editor started from: when someone else changed the text meanwhile,
  // the server merges three-way instead of overwriting their words. Other fields are last-writer-wins.
  base: z
    .object({
      requirements: text().max(RUBRIC_LIMITS.maxRequirementsLength, maxChars(RUBRIC_LIMITS.maxRequirementsLength)),
    })
    .optional(),
});
const moveOp = z.object({
  kind: z.literal("move"),
  // Several nodes at once (a multi-selection dragged together), each to its new place.
  moves: z.array(nodePlacementSchema).min(1).max(10_000),
});
const deleteOp = z.object({
  kind: z.literal("delete"),
  // Each key's whole subtree is (soft-)deleted; the root node cannot be deleted.
  keys: z.array(key).min(1).max(10_000),
});
const restoreOp = z.object({
  kind: z.literal("restore"),
  // Brings back subtrees deleted with these roots (and only what that delete removed).
  keys: z.array(key).min(1).max(10_000),
});

// Lint dismissals (`lint-dismissals.ts`): one warning code, for one node (`key`) or the whole rule
// (`key` null). They change no node, so they return no signed-off rubric to draft.
const lintCode = z.enum(DISMISSABLE_CODES, {
  error: `must be one of the warning codes: ${DISMISSABLE_CODES.join(", ")}`,
});
const dismissOp = z.object({
  kind: z.literal("dismiss"),
  code: lintCode,
  key: key.nullable(),
  reason: text().trim().min(1, "must say why the warning is dismissed").max(1000, "must be at most 1000 characters"),
});
const undismissOp = z.object({ kind: z.literal("undismiss"), code: lintCode, key: key.nullable() });

export const simpleOperationSchema = z.discriminatedUnion("kind", [
  createOp,
  updateOp,
  moveOp,
  deleteOp,
  restoreOp,
  dismissOp,
  undismissOp,
]);
export type SimpleOperation = z.output<typeof simpleOperationSchema>;

// Several operations applied as one revision (restoring a version, undoing a batch).
const batchOp = z.object({ kind: z.literal("batch"), ops: z.array(simpleOperationSchema).min(1).max(100_000) });

export const operationSchema = z.discriminatedUnion("kind", [
  createOp,
  updateOp,
  moveOp,
  deleteOp,
  restoreOp,
  dismissOp,
  undismissOp,
  batchOp,
]);
export type RubricOperation = z.output<typeof operationSchema>;
export type OperationKind = RubricOperation["kind"];
export type LintOperation = Extract<RubricOperation, { kind: "dismiss" | "undismiss" }>;

/** A dismissal or its undoing: it changes no node. */
export function isLintOperation(op: RubricOperation): op is LintOperation {
  return op.kind === "dismiss" || op.kind === "undismiss";
}

/** Every problem the request schema finds in `op`, in words (the browser's check before sending), or null. */
export function operationProblems(op: unknown): string | null {
  const checked = operationSchema.safeParse(op);
  return checked.success ? null : problemsSentence(zodProblems(checked.error));
}

export const operationRequestSchema = z.object({
  clientOpId: text().min(1).max(100),
  baseRevision: z.number().int().min(0),
  op: operationSchema,
  /**
   * The open editor (browser tab) that sends it, as its live feed names itself: that feed is not
   * sent the operation back (the answer confirms it), others, the same person's other tabs
   * included, are.
   */
  editorSession: presenceSessionSchema.optional(),
});
export type OperationRequest = z.output<typeof operationRequestSchema>;

/** What the server answers to an applied operation: the new revision and the operation that undoes it. */
export interface OperationResult {
  revision: number;
  inverse: RubricOperation;
  /** Set when a requirement text was merged with someone else's change: the client reloads it. */
  merged?: true;
}

/** Why an operation was refused; the client rolls back its optimistic change and shows the message. */
export const OPERATION_ERROR_CODES = [
  "node_not_found", // a key that is not in the rubric (or not in the live tree)
  "node_deleted", // the target or new parent was deleted
  "cycle", // a move under the node's own subtree
  "root", // deleting or moving the root, or creating a second root
  "duplicate_key", // create with a key that exists
  "limit", // the rubric would pass a documented limit (nodes, depth: `limits.ts`)
  "invalid", // anything else malformed (a create list whose parents do not chain)
] as const;
export type OperationErrorCode = (typeof OPERATION_ERROR_CODES)[number];

export class OperationError extends Error {
  constructor(
    readonly code: OperationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "OperationError";
  }
}
