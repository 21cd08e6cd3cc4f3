import type { NodeRow } from "@/lib/rubric/tree-rows";

/** The editor tests' node keys: UUIDs numbered `n`. */
export const K = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A row numbered `n` under `parent` (null: the root) at `position`, weight 1, with `extra` over it. */
export function row(n: number, parent: number | null, position: string, extra: Partial<NodeRow> = {}): NodeRow {
  return {
    key: K(n),
    parentKey: parent === null ? null : K(parent),
    position,
    nodeId: K(100 + n),
    requirements: `Node ${n}`,
    weight: 1,
    taskCategory: parent === null ? null : "Code Development",
    finegrainedTaskCategory: null,
    ...extra,
  };
}

/** A root with two children. */
export const ROWS: NodeRow[] = [row(1, null, "a0"), row(2, 1, "a0"), row(3, 1, "a1")];
