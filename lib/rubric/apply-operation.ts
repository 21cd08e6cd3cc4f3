/**
 * The browser's optimistic application of an operation to the live rows of a rubric (DESIGN.md,
 * co-editing model): the rules of `operation-rules.ts` (the server's too) run on the live rows,
 * and a new array is the result (the input is never modified). The server stays authoritative:
 * when it refuses, the client rolls back. `restore` and `batch` need the server's log and are
 * never applied here. Pure; no framework, no Node built-ins.
 */
import { OperationError, type NewNode, type NodeFields, type RubricOperation } from "./operations";
import { runOperationRules, type RuleRow, type RuleRows } from "./operation-rules";
import type { NodeRow } from "./tree-rows";

/**
 * Applies `op` to `rows` (the live rows: one root, no deleted rows) and returns the new rows:
 * unchanged rows are the same objects, changed ones are copies, created ones are appended.
 * Throws `OperationError` with the codes of the rules (`operation-rules.ts`); a deleted node is
 * not among the live rows, so it is `node_not_found` here. `restore` and `batch` are `invalid`.
 */
export function applyOperation(rows: readonly NodeRow[], op: RubricOperation): NodeRow[] {
  if (op.kind === "restore" || op.kind === "batch") {
    throw new OperationError("invalid", `A ${op.kind} operation is applied by the server only`);
  }
  const live = new LiveRows(rows);
  runOperationRules(live, op, LiveRows.REVISION);
  return live.result();
}

const FIELD_NAMES = ["nodeId", "requirements", "weight", "taskCategory", "finegrainedTaskCategory"] as const;

/** The live rows as the rules see them, changed copy-on-write. */
class LiveRows implements RuleRows {
  /** Any revision does: every row given is live, so a delete here is the only one. */
  static readonly REVISION = 0;
  private readonly out: NodeRow[];
  private readonly index = new Map<string, number>();
  private readonly deleted = new Set<string>();
  private children: Map<string, string[]> | null = null;

  constructor(rows: readonly NodeRow[]) {
    this.out = rows.slice();
    this.out.forEach((row, i) => this.index.set(row.key, i));
  }

  result(): NodeRow[] {
    return this.deleted.size === 0 ? this.out : this.out.filter((row) => !this.deleted.has(row.key));
  }

  row(key: string): RuleRow | null {
    const i = this.index.get(key);
    if (i === undefined) return null;
    return { ...this.out[i], deletedRevision: this.deleted.has(key) ? LiveRows.REVISION : null };
  }

  takenKey(keys: string[]): string | null {
    return keys.find((key) => this.index.has(key)) ?? null;
  }

  hasLiveNodes(): boolean {
    return this.out.length > this.deleted.size;
  }

  isAncestor(ancestor: string, key: string): boolean {
    // Bounded by the row count, in case the rows given already hold a cycle.
    let current: string | null = key;
    for (let steps = 0; current !== null && steps <= this.out.length; steps++) {
      if (current === ancestor) return true;
      const i = this.index.get(current);
      current = i === undefined ? null : this.out[i].parentKey;
    }
    return false;
  }

  update(key: string, fields: Partial<NodeFields>): void {
    const i = this.index.get(key)!;
    const updated: NodeRow = { ...this.out[i] };
    for (const name of FIELD_NAMES) {
      const value = fields[name];
      if (value !== undefined) (updated as unknown as Record<string, unknown>)[name] = value;
    }
    this.out[i] = updated;
  }

  insert(nodes: NewNode[]): void {
    for (const n of nodes) {
      this.index.set(n.key, this.out.length);
      this.out.push({
        key: n.key,
        parentKey: n.parentKey,
        position: n.position,
        nodeId: n.nodeId,
        requirements: n.requirements,
        weight: n.weight,
        taskCategory: n.taskCategory,
        finegrainedTaskCategory: n.finegrainedTaskCategory,
      });
    }
    this.children = null;
  }

  place(key: string, parentKey: string, position: string): void {
    const i = this.index.get(key)!;
    this.out[i] = { ...this.out[i], parentKey, position };
    this.children = null;
  }

  deleteSubtree(key: string): void {
    const stack = [key];
    while (stack.length > 0) {
      const k = stack.pop()!;
      if (this.deleted.has(k)) continue;
      this.deleted.add(k);
      for (const child of this.childrenOf(k)) stack.push(child);
    }
  }

  restoreSubtree(): string[] {
    // The live rows hold nothing deleted before this operation (restore is refused above).
    throw new OperationError("invalid", "A restore operation is applied by the server only");
  }

  private childrenOf(key: string): readonly string[] {
    if (!this.children) {
      this.children = new Map();
      for (const row of this.out) {
        if (row.parentKey === null) continue;
        const kids = this.children.get(row.parentKey);
        if (kids) kids.push(row.key);
        else this.children.set(row.parentKey, [row.key]);
      }
    }
    return this.children.get(key) ?? [];
  }
}
