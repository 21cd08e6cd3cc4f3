/**
 * The browser's optimistic application of an operation to the live rows of a rubric (DESIGN.md,
 * co-editing model): the rules of `operation-rules.ts` (the server's too) run on the live rows,
 * and a new array is the result (the input is never modified). The server stays authoritative:
 * when it refuses, the client rolls back. `restore` and `batch` need the server's log, and lint
 * dismissals the server's list of them: they are never applied here. Pure; no framework, no Node built-ins.
 */
import { MemoryRows } from "./memory-rows";
import { runOperationRules } from "./operation-rules";
import { OperationError, type RubricOperation } from "./operations";
import type { NodeRow } from "./tree-rows";

/**
 * Applies `op` to `rows` (the live rows: one root, no deleted rows) and returns the new rows:
 * unchanged rows are the same objects, changed ones are copies, created ones are appended.
 * Throws `OperationError` with the codes of the rules (`operation-rules.ts`); a deleted node is
 * not among the live rows, so it is `node_not_found` here. `restore`, `batch`, `dismiss` and
 * `undismiss` are `invalid`.
 */
export function applyOperation(rows: readonly NodeRow[], op: RubricOperation): NodeRow[] {
  if (op.kind === "restore" || op.kind === "batch" || op.kind === "dismiss" || op.kind === "undismiss") {
    throw new OperationError("invalid", `A ${op.kind} operation is applied by the server only`);
  }
  const live = new MemoryRows(rows);
  // Any revision does: every row given is live, so a delete here is the only one.
  runOperationRules(live, op, 0);
  return live.liveRows();
}
