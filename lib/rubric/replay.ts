/**
 * The rubric as of any revision, rebuilt from the operation log (DESIGN.md: "the operation log is
 * the history"): start from the last import at or before it and replay the logged operations, as
 * the server applied them, up to it, by the same rules (`operation-rules.ts`). The soft-deleted
 * rows are kept beside the live ones with the revision that deleted them, because a later
 * `restore` brings back exactly what that delete removed. Pure; no framework, no Node built-ins.
 */
import type { NewNode, NodeFields, RubricOperation } from "./operations";
import { runOperationRules, type RuleRow, type RuleRows } from "./operation-rules";
import { treeToRows, type NodeRow } from "./tree-rows";
import type { RubricNode } from "./types";

export type DeletedRow = NodeRow & { deletedRevision: number };

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
 * `OperationError` when the log does not fit the state, which a consistent log never does.
 */
export function replayOperation(state: ReplayState, op: RubricOperation, revision: number): void {
  const rows = new ReplayRows(state);
  runOperationRules(rows, op, revision);
  state.live = rows.liveRows();
}

const FIELD_NAMES = ["nodeId", "requirements", "weight", "taskCategory", "finegrainedTaskCategory"] as const;

/** The replayed rubric as the operation rules see it: live rows by key, deleted ones in the state's map. */
class ReplayRows implements RuleRows {
  private readonly live = new Map<string, NodeRow>();
  /** Children by parent key over every row, live or deleted; rebuilt after a change of the tree's shape. */
  private children: Map<string, string[]> | null = null;

  constructor(private readonly state: ReplayState) {
    for (const row of state.live) this.live.set(row.key, row);
  }

  liveRows(): NodeRow[] {
    return [...this.live.values()];
  }

  row(key: string): RuleRow | null {
    const live = this.live.get(key);
    if (live) return { ...live, deletedRevision: null };
    return this.state.deleted.get(key) ?? null;
  }

  takenKey(keys: string[]): string | null {
    return keys.find((key) => this.live.has(key) || this.state.deleted.has(key)) ?? null;
  }

  hasLiveNodes(): boolean {
    return this.live.size > 0;
  }

  isAncestor(ancestor: string, key: string): boolean {
    let current: string | null = key;
    for (let steps = 0; current !== null && steps <= this.live.size; steps++) {
      if (current === ancestor) return true;
      current = this.live.get(current)?.parentKey ?? null;
    }
    return false;
  }

  update(key: string, fields: Partial<NodeFields>): void {
    const updated: NodeRow = { ...this.live.get(key)! };
    for (const name of FIELD_NAMES) {
      const value = fields[name];
      if (value !== undefined) (updated as unknown as Record<string, unknown>)[name] = value;
    }
    this.live.set(key, updated);
  }

  insert(nodes: NewNode[]): void {
    for (const n of nodes) {
      const { key, parentKey, position, nodeId, requirements, weight, taskCategory, finegrainedTaskCategory } = n;
      this.live.set(key, { key, parentKey, position, nodeId, requirements, weight, taskCategory, finegrainedTaskCategory });
    }
    this.children = null;
  }

  place(key: string, parentKey: string, position: string): void {
    this.live.set(key, { ...this.live.get(key)!, parentKey, position });
    this.children = null;
  }

  deleteSubtree(key: string, revision: number): void {
    // The node and its live descendants.
    const stack = [key];
    while (stack.length > 0) {
      const row = this.live.get(stack.pop()!);
      if (!row) continue;
      this.live.delete(row.key);
      this.state.deleted.set(row.key, { ...row, deletedRevision: revision });
      stack.push(...this.childrenOf(row.key));
    }
  }

  restoreSubtree(key: string, deletedRevision: number): string[] {
    // The node and the descendants deleted with it: others deleted earlier or later stay deleted.
    const back: string[] = [];
    const stack = [key];
    while (stack.length > 0) {
      const row = this.state.deleted.get(stack.pop()!);
      if (!row || row.deletedRevision !== deletedRevision) continue;
      this.state.deleted.delete(row.key);
      const { deletedRevision: _stamp, ...live } = row;
      this.live.set(row.key, live);
      back.push(row.key);
      stack.push(...this.childrenOf(row.key));
    }
    return back;
  }

  private childrenOf(key: string): readonly string[] {
    if (!this.children) {
      this.children = new Map();
      const add = (row: NodeRow) => {
        if (row.parentKey === null) return;
        const kids = this.children!.get(row.parentKey);
        if (kids) kids.push(row.key);
        else this.children!.set(row.parentKey, [row.key]);
      };
      for (const row of this.live.values()) add(row);
      for (const row of this.state.deleted.values()) add(row);
    }
    return this.children.get(key) ?? [];
  }
}
