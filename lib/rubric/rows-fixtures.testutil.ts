/**
 * Test-only helpers for the row-based rubric modules: small trees written as nested specs, the
 * real rubrics as rows with deterministic keys.
 */
import { generateNKeysBetween } from "fractional-indexing";
import { parseRubricJson } from "./paperbench";
import { readPaperText } from "./paperbench-data.testutil";
import { treeToRows, type NodeRow } from "./tree-rows";
import type { RubricNode } from "./types";

export interface Spec {
  key: string;
  /** Weight, default 1. */
  w?: number;
  /** task_category; default "Code Development" on a leaf, null on an internal node. */
  cat?: string | null;
  /** finegrained_task_category; default "Method Implementation" on a leaf, null otherwise. */
  fine?: string | null;
  /** Requirements, default `Requirement <key>`. */
  req?: string;
  /** PaperBench id, default a UUID made from the key. */
  id?: string;
  kids?: Spec[];
}

/** A UUID-shaped id made from a key (same key, same id). */
export function uuidFor(key: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < key.length; i++) {
    h1 = Math.imul(h1 ^ key.charCodeAt(i), 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ key.charCodeAt(i), 0x85ebca6b) >>> 0;
  }
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  const a = hex(h1);
  const b = hex(h2);
  return `${a}-${b.slice(0, 4)}-4${b.slice(4, 7)}-8${a.slice(0, 3)}-${b}${a.slice(4, 8)}`;
}

/** Rows of a spec tree in pre-order, siblings at increasing positions. */
export function specRows(spec: Spec): NodeRow[] {
  const rows: NodeRow[] = [];
  const visit = (s: Spec, parentKey: string | null, position: string) => {
    const kids = s.kids ?? [];
    const leaf = kids.length === 0;
    rows.push({
      key: s.key,
      parentKey,
      position,
      nodeId: s.id ?? uuidFor(s.key),
      requirements: s.req ?? `Requirement ${s.key}`,
      weight: s.w ?? 1,
      taskCategory: s.cat !== undefined ? s.cat : leaf ? "Code Development" : null,
      finegrainedTaskCategory: s.fine !== undefined ? s.fine : leaf ? "Method Implementation" : null,
    });
    const positions = generateNKeysBetween(null, null, kids.length);
    kids.forEach((k, i) => visit(k, s.key, positions[i]));
  };
  visit(spec, null, "a0");
  return rows;
}

/** A spec tree as a PaperBench tree. */
export function specTree(spec: Spec): RubricNode {
  const kids = spec.kids ?? [];
  const leaf = kids.length === 0;
  return {
    id: spec.id ?? uuidFor(spec.key),
    requirements: spec.req ?? `Requirement ${spec.key}`,
    weight: spec.w ?? 1,
    sub_tasks: kids.map(specTree),
    task_category: spec.cat !== undefined ? spec.cat : leaf ? "Code Development" : null,
    finegrained_task_category: spec.fine !== undefined ? spec.fine : leaf ? "Method Implementation" : null,
  };
}

/** A real rubric's tree. */
export function realTree(paper: string): RubricNode {
  const result = parseRubricJson(readPaperText(paper, "rubric.json"));
  if (!result.ok) throw new Error(`${paper}: ${result.errors.map((e) => e.message).join("; ")}`);
  return result.tree;
}

/** A real rubric as rows, keys `<prefix>0`, `<prefix>1`, … in pre-order. */
export function realRows(paper: string, prefix = "k"): NodeRow[] {
  let i = 0;
  return treeToRows(realTree(paper), () => `${prefix}${i++}`);
}
