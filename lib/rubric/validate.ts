/**
 * Structural validation of a parsed rubric value: builds a clean `RubricNode` tree (canonical
 * keys, missing categories as null, unknown keys dropped) or lists what is wrong and where, with
 * the checks every PaperBench tree shares (`tree-reader.ts`). Pure; no Node built-ins.
 */
import { RUBRIC_LIMITS, type RubricLimits } from "./limits";
import { readTree, TreeIssues, type NodeKind } from "./tree-reader";
import type { RubricIssue, RubricNode, RubricStats } from "./types";
import { ROOT_PATH } from "./walk";

const KNOWN_KEYS: ReadonlySet<string> = new Set([
  "id",
  "requirements",
  "weight",
  "sub_tasks",
  "task_category",
  "finegrained_task_category",
]);

export type ValidationResult =
  | {
      ok: true;
      tree: RubricNode;
      stats: RubricStats;
      /** Keys dropped from each node, for `unknown_key` warnings. */
      unknownKeys: Map<RubricNode, string[]>;
    }
  | { ok: false; errors: RubricIssue[] };

export function validateRubricValue(value: unknown, limits: RubricLimits = RUBRIC_LIMITS): ValidationResult {
  const issues = new TreeIssues();
  const unknownKeys = new Map<RubricNode, string[]>();
  const rubricNode: NodeKind<RubricNode> = {
    keys: KNOWN_KEYS,
    build: (_raw, _path, c, sub_tasks) => ({
      id: c.id,
      requirements: c.requirements,
      weight: c.weight,
      sub_tasks,
      task_category: c.task_category,
      finegrained_task_category: c.finegrained_task_category,
    }),
    unknownKey: (node, key) => {
      const dropped = unknownKeys.get(node);
      if (dropped) dropped.push(key);
      else unknownKeys.set(node, [key]);
    },
  };
  const { tree, stats } = readTree(value, ROOT_PATH, limits, rubricNode, issues);
  if (issues.errors.length > 0 || tree === null) return { ok: false, errors: issues.errors };
  return { ok: true, tree, stats, unknownKeys };
}
