/**
 * The rules of rubric operations, written once (DESIGN.md, co-editing model): which operations are
 * refused and why, in which order the checks run, how a requirement text edited from a stale base
 * is merged, and which inverse undoes what was applied. The browser runs them on its live rows
 * (`apply-operation.ts`, optimistic and synchronous); the server runs them on the database in one
 * transaction (`server/rubrics/apply-rubric-operation.ts`). Both answer the same questions through
 * `RuleRows`, so an operation both refuse is refused with the same code and message.
 * Pure; no framework, no Node built-ins.
 */
import { RUBRIC_LIMITS, type RubricLimits } from "./limits";
import { mergeText } from "./text-merge";
import {
  OperationError,
  type NewNode,
  type NodeFields,
  type NodePlacement,
  type RubricOperation,
  type SimpleOperation,
} from "./operations";
import type { LintCode } from "./editor-lint";
import type { NodeRow } from "./tree-rows";

/** A row as the rules see it: deleted rows are kept, with the revision that deleted them. */
export type RuleRow = NodeRow & { deletedRevision: number | null };

/**
 * What the rules read and write. `revision` in deletes is the revision being written: a restore
 * brings back exactly what that delete removed.
 */
export interface RuleRows {
  /** The row with this key in this rubric, deleted or not; null when there is none. */
  row(key: string): RuleRow | null;
  /** The first of these keys that a node of this rubric already has, live or deleted. */
  takenKey(keys: string[]): string | null;
  hasLiveNodes(): boolean;
  /** How many live nodes the rubric has. */
  liveNodeCount(): number;
  /** Levels from the root down to this live node (the root is 1). */
  depth(key: string): number;
  /** Levels of the live subtree under this node (a leaf is 1). */
  height(key: string): number;
  /** Whether `ancestor` is `key` or on the path from `key` up to the root. */
  isAncestor(ancestor: string, key: string): boolean;
  update(key: string, fields: Partial<NodeFields>): void;
  insert(nodes: NewNode[]): void;
  place(key: string, parentKey: string, position: string): void;
  /** Marks the node and its live descendants deleted in `revision`. */
  deleteSubtree(key: string, revision: number): void;
  /** Brings back the node and the descendants deleted with it; the keys brought back. */
  restoreSubtree(key: string, deletedRevision: number): string[];
  /** The reason a lint code is dismissed for a node (`key`) or the whole rule (null); null when it is not. */
  dismissal(code: string, key: string | null): string | null;
  /** Dismisses (`reason`) or takes back (null) a lint code for a node or the whole rule, in `revision`. */
  setDismissal(code: string, key: string | null, reason: string | null, revision: number): void;
}

/** The same questions answered asynchronously (the server's database). */
export type AsyncRuleRows = {
  [K in keyof RuleRows]: (...args: Parameters<RuleRows[K]>) => Promise<ReturnType<RuleRows[K]>>;
};

export interface AppliedOperation {
  /** The operation that undoes it. */
  inverse: RubricOperation;
  /** The operation as applied: merged texts in place of the ones sent (followers replay this). */
  applied: RubricOperation;
  /** Whether a requirement text was merged with someone else's change. */
  merged: boolean;
}

/**
 * The limits an operation must keep the rubric within: the import's (`limits.ts`), so that no way
 * of building a rubric makes one the studio cannot read, walk or export. `null` checks none: the
 * history as it was logged is replayed whatever it built.
 */
export type OperationLimits = Pick<RubricLimits, "maxNodes" | "maxDepth"> | null;

/** Applies `op` to `rows` by the rules, throwing OperationError for a refused operation. */
export function runOperationRules(
  rows: RuleRows,
  op: RubricOperation,
  revision: number,
  limits: OperationLimits = RUBRIC_LIMITS,
): AppliedOperation {
  const steps = operationSteps(op, revision, limits);
  for (let step = steps.next(); ;) {
    if (step.done) return step.value;
    const method = rows[step.value.method] as (...args: unknown[]) => unknown;
    step = steps.next(method.apply(rows, step.value.args));
  }
}

export async function runOperationRulesAsync(
  rows: AsyncRuleRows,
  op: RubricOperation,
  revision: number,
  limits: OperationLimits = RUBRIC_LIMITS,
): Promise<AppliedOperation> {
  const steps = operationSteps(op, revision, limits);
  for (let step = steps.next(); ;) {
    if (step.done) return step.value;
    const method = rows[step.value.method] as (...args: unknown[]) => Promise<unknown>;
    step = steps.next(await method.apply(rows, step.value.args));
  }
}

// The rules are one generator: each question to the rows is yielded, and the driver (sync or async)
// sends the answer back in.
type Call = { [K in keyof RuleRows]: { method: K; args: Parameters<RuleRows[K]> } }[keyof RuleRows];
type Steps<T> = Generator<Call, T, unknown>;

function* call<K extends keyof RuleRows>(method: K, ...args: Parameters<RuleRows[K]>): Steps<ReturnType<RuleRows[K]>> {
  return (yield { method, args } as Call) as ReturnType<RuleRows[K]>;
}

function* operationSteps(op: RubricOperation, revision: number, limits: OperationLimits): Steps<AppliedOperation> {
  const ctx: Context = { revision, limits, mergedTexts: new Map(), restored: new Set() };
  let inverse: RubricOperation;
  if (op.kind === "batch") {
    const inverses: SimpleOperation[] = [];
    for (const sub of op.ops) {
      const undo = yield* simpleSteps(ctx, sub);
      // A delete of nodes an earlier step of this batch already deleted changes nothing, and an
      // empty restore is not a valid operation: it leaves no step in the inverse.
      if (undo.kind === "restore" && undo.keys.length === 0) continue;
      inverses.push(...(undo.kind === "batch" ? undo.ops : [undo]));
    }
    inverse = { kind: "batch", ops: inverses.reverse() };
  } else {
    inverse = yield* simpleSteps(ctx, op);
  }
  const merged = ctx.mergedTexts.size > 0;
  return { inverse, applied: merged ? effective(ctx, op) : op, merged };
}

interface Context {
  revision: number;
  limits: OperationLimits;
  /** Requirement texts merged three-way, by node key: the operation as applied differs from the one sent. */
  mergedTexts: Map<string, string>;
  /**
   * Nodes this operation has restored so far, across the steps of a batch: a node deleted in one
   * step of a batch and then again with an ancestor in a later step comes back with that ancestor
   * when the batch is undone, and the undo's own step for it finds it back already.
   */
  restored: Set<string>;
}

/** The operation with merged texts in place of the ones sent (and without the merge bases). */
function effective(ctx: Context, op: RubricOperation): RubricOperation {
  if (op.kind === "batch") return { kind: "batch", ops: op.ops.map((o) => effective(ctx, o) as SimpleOperation) };
  if (op.kind !== "update" || !ctx.mergedTexts.has(op.key)) return op;
  return { kind: "update", key: op.key, fields: { ...op.fields, requirements: ctx.mergedTexts.get(op.key)! } };
}

function simpleSteps(ctx: Context, op: SimpleOperation): Steps<RubricOperation> {
  switch (op.kind) {
    case "update":
      return updateSteps(ctx, op.key, op.fields, op.base?.requirements);
    case "create":
      return createSteps(ctx, op.nodes);
    case "move":
      return moveSteps(ctx, op.moves);
    case "delete":
      return deleteSteps(ctx, op.keys);
    case "restore":
      return restoreSteps(ctx, op.keys);
    case "dismiss":
      return dismissalSteps(ctx, op.code, op.key, op.reason);
    case "undismiss":
      return dismissalSteps(ctx, op.code, op.key, null);
    default: {
      const unknown: { kind?: unknown } = op;
      throw new OperationError("invalid", `Unknown operation ${JSON.stringify(unknown.kind)}`);
    }
  }
}

function* liveRow(key: string, what = "The node"): Steps<RuleRow> {
  const row = yield* call("row", key);
  if (!row) throw new OperationError("node_not_found", `${what} is not in this rubric (someone may have deleted it)`);
  if (row.deletedRevision !== null) {
    throw new OperationError(
      "node_deleted",
      `${what} was deleted (in revision ${row.deletedRevision}); restore it first`,
    );
  }
  return row;
}

function* updateSteps(
  ctx: Context,
  key: string,
  fields: Partial<NodeFields>,
  baseText?: string,
): Steps<RubricOperation> {
  const row = yield* liveRow(key);
  if (fields.requirements !== undefined && baseText !== undefined && row.requirements !== baseText) {
    // Someone else changed this text since the editor read it: keep both people's words.
    const text = mergeText(baseText, fields.requirements, row.requirements).text;
    ctx.mergedTexts.set(key, text);
    fields = { ...fields, requirements: text };
  }
  const old = Object.fromEntries(
    Object.keys(fields).map((f) => [f, row[f as keyof NodeFields]]),
  ) as Partial<NodeFields>;
  yield* call("update", key, fields);
  return { kind: "update", key, fields: old };
}

/** Refuses a rubric of `count` live nodes when that is over the limit. */
function checkNodeCount(ctx: Context, count: number): void {
  if (ctx.limits && count > ctx.limits.maxNodes) {
    throw new OperationError("limit", `The rubric would have ${count} nodes; the limit is ${ctx.limits.maxNodes}`);
  }
}

/** Refuses a node placed at `depth` levels from the root when that is over the limit. */
function checkDepth(ctx: Context, depth: number): void {
  if (ctx.limits && depth > ctx.limits.maxDepth) {
    throw new OperationError(
      "limit",
      `The rubric would be ${depth} levels deep; the limit is ${ctx.limits.maxDepth} levels`,
    );
  }
}

function* createSteps(ctx: Context, nodes: NewNode[]): Steps<RubricOperation> {
  if (nodes.length === 0) throw new OperationError("invalid", "A create needs at least one node");
  const [first, ...rest] = nodes;
  const listed = new Set<string>();
  for (const node of nodes) {
    if (listed.has(node.key)) throw new OperationError("duplicate_key", "A node appears twice in the new nodes");
    listed.add(node.key);
  }
  // One subtree: every later node hangs under an earlier node of the list. Its levels, for the depth limit.
  const level = new Map([[first.key, 1]]);
  let height = 1;
  for (const node of rest) {
    const parentLevel = node.parentKey ? level.get(node.parentKey) : undefined;
    if (parentLevel === undefined) {
      throw new OperationError("invalid", "New nodes must form one subtree listed in pre-order");
    }
    level.set(node.key, parentLevel + 1);
    height = Math.max(height, parentLevel + 1);
  }
  const taken = yield* call("takenKey", [...listed]);
  if (taken !== null) throw new OperationError("duplicate_key", "A node with this key already exists");
  if (first.parentKey === null) {
    // A node without a parent is the root, which only an empty rubric accepts.
    if (yield* call("hasLiveNodes"))
      throw new OperationError("root", "The rubric already has a root; add the node under it");
    checkDepth(ctx, height);
  } else {
    yield* liveRow(first.parentKey, "The parent");
    if (ctx.limits) checkDepth(ctx, (yield* call("depth", first.parentKey)) + height);
  }
  if (ctx.limits) checkNodeCount(ctx, (yield* call("liveNodeCount")) + nodes.length);
  yield* call("insert", nodes);
  return { kind: "delete", keys: [first.key] };
}

function* moveSteps(ctx: Context, moves: NodePlacement[]): Steps<RubricOperation> {
  if (moves.length === 0) throw new OperationError("invalid", "A move needs at least one node");
  const undo: NodePlacement[] = [];
  // One at a time, each checked against the tree as the earlier moves left it.
  for (const move of moves) {
    const row = yield* liveRow(move.key);
    if (row.parentKey === null) throw new OperationError("root", "The root cannot be moved");
    if (move.parentKey === null || move.parentKey === undefined) {
      throw new OperationError("root", "A moved node needs a parent; a rubric has one root");
    }
    yield* liveRow(move.parentKey, "The new parent");
    if (yield* call("isAncestor", move.key, move.parentKey)) {
      throw new OperationError("cycle", "Cannot move a node under its own subtree");
    }
    if (ctx.limits) checkDepth(ctx, (yield* call("depth", move.parentKey)) + (yield* call("height", move.key)));
    undo.push({ key: move.key, parentKey: row.parentKey, position: row.position });
    yield* call("place", move.key, move.parentKey, move.position);
  }
  return { kind: "move", moves: undo.reverse() };
}

function* deleteSteps(ctx: Context, keys: string[]): Steps<RubricOperation> {
  if (keys.length === 0) throw new OperationError("invalid", "A delete needs at least one node");
  const deleted: string[] = [];
  for (const key of keys) {
    const row = yield* call("row", key);
    if (!row) throw new OperationError("node_not_found", "The node is not in this rubric");
    // Already gone with an ancestor listed before it in this operation.
    if (row.deletedRevision === ctx.revision) continue;
    if (row.deletedRevision !== null) throw new OperationError("node_deleted", "The node was already deleted");
    if (row.parentKey === null) throw new OperationError("root", "The root cannot be deleted");
    yield* call("deleteSubtree", key, ctx.revision);
    deleted.push(key);
  }
  return { kind: "restore", keys: deleted.reverse() };
}

function* restoreSteps(ctx: Context, keys: string[]): Steps<RubricOperation> {
  const { restored } = ctx;
  for (const key of keys) {
    const row = yield* call("row", key);
    if (!row) throw new OperationError("node_not_found", "The node is not in this rubric");
    // Already back with an ancestor restored before it in this operation (the undo of a delete, or
    // of a batch of deletes, that named both).
    if (row.deletedRevision === null && restored.has(key)) continue;
    if (row.deletedRevision === null) throw new OperationError("invalid", "The node is not deleted");
    if (row.parentKey !== null) yield* liveRow(row.parentKey, "Its parent");
    // Exactly what that delete removed: descendants deleted earlier or later stay deleted.
    for (const back of yield* call("restoreSubtree", key, row.deletedRevision)) restored.add(back);
    // Checked once it is back (a refusal rolls the whole operation back): where it returns may
    // have moved deeper, and other nodes may have been added, since it was deleted.
    if (ctx.limits) {
      checkNodeCount(ctx, yield* call("liveNodeCount"));
      checkDepth(ctx, (yield* call("depth", key)) + (yield* call("height", key)) - 1);
    }
  }
  return { kind: "delete", keys: [...keys].reverse() };
}

/**
 * Dismisses a lint code (`reason`) or takes a dismissal back (null). A node's finding is dismissed
 * on a live node; taking one back needs none (the node may have been deleted since), and taking
 * back what is not dismissed changes nothing. The inverse puts back the reason there was.
 */
function* dismissalSteps(
  ctx: Context,
  code: LintCode,
  key: string | null,
  reason: string | null,
): Steps<RubricOperation> {
  if (key !== null && reason !== null) yield* liveRow(key);
  const previous = yield* call("dismissal", code, key);
  yield* call("setDismissal", code, key, reason, ctx.revision);
  return previous === null ? { kind: "undismiss", code, key } : { kind: "dismiss", code, key, reason: previous };
}
