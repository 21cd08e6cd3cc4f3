/**
 * The rubric as of any revision, rebuilt from the operation log (DESIGN.md: "the operation log is
 * the history"): start from the last import at or before it and replay the logged operations, as
 * the server applied them, up to it, by the same rules (`operation-rules.ts`). The soft-deleted
 * rows are kept beside the live ones with the revision that deleted them, because a later
 * `restore` brings back exactly what that delete removed. Pure; no framework, no Node built-ins.
 */
import { MemoryRows, type DeletedRow } from "./memory-rows";
import { runOperationRules } from "./operation-rules";
import type { RubricOperation } from "./operations";
import { treeToRows, type NodeRow } from "./tree-rows";
import type { RubricNode } from "./types";

export type { DeletedRow };

export interface ReplayState {
  /** The live rows (one root, nothing deleted), in no particular order. */
  live: NodeRow[];
  /** Soft-deleted rows by key. */
  deleted: Map<string, DeletedRow>;
}

/** An empty rubric: revision 0, or a rubric built from nothing. */
export function emptyReplayState(): ReplayState {
  return { live: [], deleted: new Map() };
}

/**
 * The state an import leaves: its tree with the keys it was stored under (pre-order, as
 * `treeToRows` hands them out; the positions come out the same as stored), or fresh keys when they
 * are unknown. An import replaces every row, deleted ones included.
 */
export function importReplayState(tree: RubricNode, keys?: readonly string[]): ReplayState {
  if (!keys) return { live: treeToRows(tree), deleted: new Map() };
  let i = 0;
  const live = treeToRows(tree, () => {
    if (i >= keys.length) throw new Error(`The import lists ${keys.length} keys but its tree has more nodes`);
    return keys[i++];
  });
  if (i !== keys.length) throw new Error(`The import lists ${keys.length} keys but its tree has ${i} nodes`);
  return { live, deleted: new Map() };
}

/**
 * Applies one logged operation (as applied: merged texts in place) at `revision`, in place. Throws
 * `OperationError` when the log does not fit the state, which a consistent log never does. The
 * limits are not checked: the log is what was applied, even before operations kept to them.
 */
export function replayOperation(state: ReplayState, op: RubricOperation, revision: number): void {
  const rows = new MemoryRows(state.live, state.deleted);
  runOperationRules(rows, op, revision, null);
  state.live = rows.liveRows();
}
