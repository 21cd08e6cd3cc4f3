/**
 * PaperBench `rubric.json`: parse (with limits, errors with paths, warnings) and serialize
 * byte-identically to Python's `json.dumps(tree, indent=4)`.
 * See DESIGN.md, "PaperBench compatibility (exact)". Pure; no Node built-ins.
 */
import { RUBRIC_LIMITS, type RubricLimits } from "./limits";
import { readJsonText } from "./json-text";
import { lintPaperBenchRules } from "./lint";
import { pythonJsonString, pythonNumber } from "./python-json";
import type { RubricIssue, RubricNode, RubricStats, RubricWarning } from "./types";
import { validateRubricValue } from "./validate";

export { RUBRIC_LIMITS, type RubricLimits } from "./limits";
export { blockingExportWarnings, isUuid, lintPaperBenchRules } from "./lint";
export { MAX_REPORTED_ERRORS } from "./tree-reader";
export { ROOT_PATH, rubricStats, walkRubric, type RubricVisitor } from "./walk";

export type ParseRubricResult =
  { ok: true; tree: RubricNode; warnings: RubricWarning[]; stats: RubricStats } | { ok: false; errors: RubricIssue[] };

/** `path: message`, e.g. `sub_tasks[1].id: is required`. */
export function formatIssue(issue: RubricIssue): string {
  return `${issue.path}: ${issue.message}`;
}

const NEWLINES: string[] = [];
const newline = (level: number): string => (NEWLINES[level] ??= "\n" + "    ".repeat(level));
const categoryJson = (c: string | null | undefined): string =>
  c === null || c === undefined ? "null" : pythonJsonString(c);

/**
 * The `rubric.json` text of a tree: Python's `json.dumps(tree, indent=4)` with the keys
 * `id, requirements, weight, sub_tasks, task_category, finegrained_task_category` at every
 * level, ASCII only, no trailing newline. Extra properties on the nodes are not written; a
 * missing category is written as null. Same bytes as `pythonJsonDumps` of the canonical tree
 * (checked by the tests), written directly for speed (a few ms for `pinn`, 2.3 MB).
 */
export function serializeRubric(tree: RubricNode): string {
  let out = "";
  /** Writes a node up to its children; its end is written once they are (`close`). */
  const openNode = (node: RubricNode, level: number): void => {
    const field = newline(level + 1);
    out +=
      "{" +
      field +
      '"id": ' +
      pythonJsonString(node.id) +
      "," +
      field +
      '"requirements": ' +
      pythonJsonString(node.requirements) +
      "," +
      field +
      '"weight": ' +
      pythonNumber(node.weight) +
      "," +
      field +
      '"sub_tasks": ';
  };
  const closeNode = (node: RubricNode, level: number): void => {
    const field = newline(level + 1);
    if (node.sub_tasks.length === 0) out += "[]";
    else out += field + "]";
    out +=
      "," +
      field +
      '"task_category": ' +
      categoryJson(node.task_category) +
      "," +
      field +
      '"finegrained_task_category": ' +
      categoryJson(node.finegrained_task_category) +
      newline(level) +
      "}";
  };
  // Iterative (deep trees): each open node with the index of its next child.
  const stack: { node: RubricNode; level: number; next: number }[] = [{ node: tree, level: 0, next: 0 }];
  openNode(tree, 0);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const kids = top.node.sub_tasks;
    if (top.next === kids.length) {
      closeNode(top.node, top.level);
      stack.pop();
      continue;
    }
    const i = top.next++;
    out += (i === 0 ? "[" : ",") + newline(top.level + 2);
    openNode(kids[i], top.level + 2);
    stack.push({ node: kids[i], level: top.level + 2, next: 0 });
  }
  return out;
}

/**
 * Validate an already-parsed JSON value as a rubric (limits other than the byte size apply):
 * a clean tree with warnings, or the errors (at most `MAX_REPORTED_ERRORS`).
 */
export function parseRubricValue(value: unknown, limits: RubricLimits = RUBRIC_LIMITS): ParseRubricResult {
  const result = validateRubricValue(value, limits);
  if (!result.ok) return result;
  const warnings = lintPaperBenchRules(result.tree, result.unknownKeys);
  return { ok: true, tree: result.tree, warnings, stats: result.stats };
}

/**
 * Parse the text of a `rubric.json`. Refused (`ok: false`) when over the size limit, not JSON
 * (with line and column), or not a well-formed rubric tree (every problem with its JSON path,
 * up to `MAX_REPORTED_ERRORS`). PaperBench rule breaks are warnings, never errors.
 * A leading byte-order mark is ignored.
 */
export function parseRubricJson(text: string, limits: RubricLimits = RUBRIC_LIMITS): ParseRubricResult {
  const read = readJsonText(text, limits.maxBytes);
  if (!read.ok) return { ok: false, errors: [read.issue] };
  return parseRubricValue(read.value, limits);
}
