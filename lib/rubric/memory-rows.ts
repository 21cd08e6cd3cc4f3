/**
 * A rubric's rows in memory for the operation rules (`operation-rules.ts`): the browser's live rows
 * (`apply-operation.ts`) and the history being replayed (`replay.ts`). Pure; no framework, no Node
 * built-ins.
 */
import type { NewNode, NodeFields } from "./operations";
import type { RuleRow, RuleRows } from "./operation-rules";
import type { NodeRow } from "./tree-rows";

export type DeletedRow = NodeRow & { deletedRevision: number };

const FIELD_NAMES = ["nodeId", "requirements", "weight", "taskCategory", "finegrainedTaskCategory"] as const;

/**
 * Rows in memory as the operation rules see them: the live rows by key, and the deleted ones in
 * `deleted` (changed in place). The rows given are never modified: a changed row is a copy.
 */
export class MemoryRows implements RuleRows {
  private readonly live = new Map<string, NodeRow>();
  /** Children by parent key over every row, live or deleted; rebuilt after a change of the tree's shape. */
  private children: Map<string, string[]> | null = null;
  /** Lint dismissals by "code key": only what the operations applied here set (the browser never applies one; a replay needs none). */
  private readonly dismissals = new Map<string, string>();

  constructor(
    rows: readonly NodeRow[],
    private readonly deleted: Map<string, DeletedRow> = new Map(),
  ) {
    for (const row of rows) this.live.set(row.key, row);
  }

  /** The live rows in the order given, changed ones in place, created ones appended. */
  liveRows(): NodeRow[] {
    return [...this.live.values()];
  }

  row(key: string): RuleRow | null {
    const live = this.live.get(key);
    if (live) return { ...live, deletedRevision: null };
    return this.deleted.get(key) ?? null;
  }

  takenKey(keys: string[]): string | null {
    return keys.find((key) => this.live.has(key) || this.deleted.has(key)) ?? null;
  }

  hasLiveNodes(): boolean {
    return this.live.size > 0;
  }

  liveNodeCount(): number {
    return this.live.size;
  }

  depth(key: string): number {
    let depth = 0;
    for (
      let current = this.live.get(key);
      current && depth <= this.live.size;
      current = this.live.get(current.parentKey ?? "")
    )
      depth++;
    return depth;
  }

  height(key: string): number {
    let height = 0;
    const stack: [string, number][] = [[key, 1]];
    while (stack.length > 0) {
      const [at, level] = stack.pop()!;
      if (!this.live.has(at)) continue;
      if (level > height) height = level;
      for (const child of this.childrenOf(at)) stack.push([child, level + 1]);
    }
    return height;
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
      this.live.set(key, {
        key,
        parentKey,
        position,
        nodeId,
        requirements,
        weight,
        taskCategory,
        finegrainedTaskCategory,
      });
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
      this.deleted.set(row.key, { ...row, deletedRevision: revision });
      stack.push(...this.childrenOf(row.key));
    }
  }

  restoreSubtree(key: string, deletedRevision: number): string[] {
    // The node and the descendants deleted with it: others deleted earlier or later stay deleted.
    const back: string[] = [];
    const stack = [key];
    while (stack.length > 0) {
      const row = this.deleted.get(stack.pop()!);
      if (!row || row.deletedRevision !== deletedRevision) continue;
      this.deleted.delete(row.key);
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
      for (const row of this.deleted.values()) add(row);
    }
    return this.children.get(key) ?? [];
  }

  dismissal(code: string, key: string | null): string | null {
    return this.dismissals.get(`${code} ${key ?? ""}`) ?? null;
  }

  setDismissal(code: string, key: string | null, reason: string | null): void {
    if (reason === null) this.dismissals.delete(`${code} ${key ?? ""}`);
    else this.dismissals.set(`${code} ${key ?? ""}`, reason);
  }
}
