/**
 * The one reader of PaperBench trees from parsed JSON: a `rubric.json` (`validate.ts`) and a
 * graded tree (`lib/grading/graded-tree.ts`) share the node checks here (the limits on nodes,
 * depth and text length; `id`, `requirements`, `weight`, the categories, `sub_tasks`) and their
 * messages; a kind of node adds its own fields (`NodeKind.build`). Hand-written rather than a
 * zod schema: it checks the depth and node limits before reading deeper, reports every problem (up
 * to `MAX_REPORTED_ERRORS`) with its JSON path, and builds nothing half-checked.
 * Pure; no Node built-ins.
 */
import type { RubricIssue, RubricNode, RubricStats } from "./types";
import { childKeyPath, subTaskPath } from "./walk";

/** At most this many errors are reported for one file. */
export const MAX_REPORTED_ERRORS = 50;

/** The limits the reader checks (the byte size is checked on the text, see `json-text.ts`). */
export interface TreeLimits {
  readonly maxNodes: number;
  /** Levels of nesting; the root alone is depth 1. */
  readonly maxDepth: number;
  /** Length of one `requirements` text, in UTF-16 code units. */
  readonly maxRequirementsLength: number;
}

/** The fields every node has: a rubric node's, less its children. */
export type CommonFields = Omit<RubricNode, "sub_tasks">;

/** "an array", "a string", "null", … for messages. */
export function describeJsonValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "object":
      return "an object";
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    default:
      return typeof value;
  }
}

/** A number as itself (`-1`), anything else described (`a string`). */
export function describeNumberish(value: unknown): string {
  return typeof value === "number" ? String(value) : describeJsonValue(value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

/**
 * The errors of one file, with the checks of single fields. Stops collecting at
 * `MAX_REPORTED_ERRORS` (`stopped` then tells the reader to stop walking).
 */
export class TreeIssues {
  readonly errors: RubricIssue[] = [];
  stopped = false;

  fail(path: string, message: string): void {
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ path, message });
    if (this.errors.length >= MAX_REPORTED_ERRORS) this.stopped = true;
  }

  /** `obj[key]` as a string of at most `maxLength` code units ("" after an error). */
  string(obj: Record<string, unknown>, path: string, key: string, maxLength?: number): string {
    if (!hasOwn(obj, key)) {
      this.fail(childKeyPath(path, key), "is required");
      return "";
    }
    const v = obj[key];
    if (typeof v !== "string") {
      this.fail(childKeyPath(path, key), `must be a string, got ${describeJsonValue(v)}`);
      return "";
    }
    if (maxLength !== undefined && v.length > maxLength) {
      this.fail(childKeyPath(path, key), `is ${v.length} characters long; the limit is ${maxLength}`);
    }
    return v;
  }

  /** `obj[key]` as null or a string; absent is null (PaperBench reads categories with `data.get`). */
  category(obj: Record<string, unknown>, path: string, key: string): string | null {
    if (!hasOwn(obj, key)) return null;
    const v = obj[key];
    if (v === null || typeof v === "string") return v;
    this.fail(childKeyPath(path, key), `must be null or a string, got ${describeJsonValue(v)}`);
    return null;
  }

  /** `obj[key]` as a finite number >= 0 (0 after an error). */
  weight(obj: Record<string, unknown>, path: string, key: string): number {
    if (!hasOwn(obj, key)) {
      this.fail(childKeyPath(path, key), "is required");
      return 0;
    }
    const v = obj[key];
    if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
    this.fail(childKeyPath(path, key), `must be a number >= 0, got ${describeNumberish(v)}`);
    return 0;
  }
}

/** What one kind of tree adds to the common node (a rubric node adds nothing). */
export interface NodeKind<N extends { sub_tasks: N[] }> {
  /** The keys a node of this kind may have; any other is passed to `unknownKey`. */
  readonly keys: ReadonlySet<string>;
  /**
   * Reads the node's own fields from `raw` (reporting problems to the reader's `TreeIssues`) and
   * builds the node around `sub_tasks` (filled afterwards). `common` is reused from node to node:
   * copy its fields.
   */
  build(raw: Record<string, unknown>, path: string, common: Readonly<CommonFields>, sub_tasks: N[]): N;
  /** A key not in `keys` (dropped from the node). */
  unknownKey(node: N, key: string, path: string): void;
}

/**
 * Reads the tree at `value` (whose JSON path is `rootPath`); `null` when the root could not be
 * read. The tree is whole only when `issues` has no errors.
 */
export function readTree<N extends { sub_tasks: N[] }>(
  value: unknown,
  rootPath: string,
  limits: TreeLimits,
  kind: NodeKind<N>,
  issues: TreeIssues,
): { tree: N | null; stats: RubricStats } {
  let nodes = 0;
  let leaves = 0;
  let maxDepth = 0;
  const common: CommonFields = {
    id: "",
    requirements: "",
    weight: 0,
    task_category: null,
    finegrained_task_category: null,
  };

  // Iterative pre-order (the order of the file, and of the errors): each node is appended to its
  // parent's `sub_tasks` when it is read, so siblings keep their order.
  let tree: N | null = null;
  const stack: { raw: unknown; path: string; depth: number; into: N[] | null }[] = [
    { raw: value, path: rootPath, depth: 1, into: null },
  ];
  while (stack.length > 0 && !issues.stopped) {
    const { raw, path, depth, into } = stack.pop()!;
    if (!isPlainObject(raw)) {
      issues.fail(path, `must be an object, got ${describeJsonValue(raw)}`);
      continue;
    }
    if (depth > limits.maxDepth) {
      issues.fail(path, `is nested deeper than the limit of ${limits.maxDepth} levels`);
      continue;
    }
    nodes++;
    if (nodes > limits.maxNodes) {
      issues.fail(rootPath, `the tree has more than ${limits.maxNodes} nodes, the limit`);
      issues.stopped = true;
      break;
    }
    if (depth > maxDepth) maxDepth = depth;

    common.id = issues.string(raw, path, "id");
    common.requirements = issues.string(raw, path, "requirements", limits.maxRequirementsLength);
    common.weight = issues.weight(raw, path, "weight");
    common.task_category = issues.category(raw, path, "task_category");
    common.finegrained_task_category = issues.category(raw, path, "finegrained_task_category");
    const sub_tasks: N[] = [];
    const node = kind.build(raw, path, common, sub_tasks);
    if (into) into.push(node);
    else tree = node;

    for (const key in raw) {
      if (!kind.keys.has(key) && hasOwn(raw, key)) kind.unknownKey(node, key, path);
    }

    if (!hasOwn(raw, "sub_tasks")) issues.fail(childKeyPath(path, "sub_tasks"), "is required");
    else {
      const kids = raw.sub_tasks;
      if (!Array.isArray(kids))
        issues.fail(childKeyPath(path, "sub_tasks"), `must be an array, got ${describeJsonValue(kids)}`);
      else {
        if (kids.length === 0) leaves++;
        for (let i = kids.length - 1; i >= 0; i--)
          stack.push({ raw: kids[i], path: subTaskPath(path, i), depth: depth + 1, into: sub_tasks });
      }
    }
  }

  return { tree, stats: { nodes, leaves, depth: maxDepth } };
}
