/**
 * PaperBench rule checks on a well-formed rubric tree. They only warn: real rubrics break some
 * of them (non-UUID and duplicate ids) and PaperBench still runs them.
 * Pure; no Node built-ins.
 */
import {
  FINEGRAINED_TASK_CATEGORIES,
  TASK_CATEGORIES,
  type RubricNode,
  type RubricWarning,
  type WarningCode,
} from "./types";
import { childKeyPath, walkRubric } from "./walk";

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** `true` for an id of the 8-4-4-4-12 hex form (any version, either case). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

const TASK_SET: ReadonlySet<string> = new Set(TASK_CATEGORIES);
const FINEGRAINED_SET: ReadonlySet<string> = new Set(FINEGRAINED_TASK_CATEGORIES);

/** Warnings PaperBench itself accepts; every other code breaks one of its rules. */
const NON_BLOCKING: ReadonlySet<WarningCode> = new Set<WarningCode>(["non_uuid_id", "duplicate_id", "unknown_key"]);

/** The warnings that break a PaperBench rule (the ones an export must not ignore). */
export function blockingExportWarnings(warnings: readonly RubricWarning[]): RubricWarning[] {
  return warnings.filter((w) => !NON_BLOCKING.has(w.code));
}

/**
 * Lint a tree. `unknownKeys` (from the parser) adds an `unknown_key` warning per dropped key,
 * in tree order with the rest.
 */
export function lintPaperBenchRules(
  tree: RubricNode,
  unknownKeys?: ReadonlyMap<RubricNode, readonly string[]>,
): RubricWarning[] {
  const warnings: RubricWarning[] = [];
  const firstPathOfId = new Map<string, string>();

  walkRubric(tree, (node, path) => {
    const nodeId = node.id;
    const warn = (code: WarningCode, field: string, message: string): void => {
      warnings.push({ code, path: childKeyPath(path, field), nodeId, message });
    };

    const firstPath = firstPathOfId.get(nodeId);
    if (firstPath === undefined) firstPathOfId.set(nodeId, path);
    else {
      warn(
        "duplicate_id",
        "id",
        `id ${JSON.stringify(nodeId)} is already used by the node at ${firstPath}; a lookup by id finds that one`,
      );
    }
    if (!isUuid(nodeId)) {
      warn("non_uuid_id", "id", `id ${JSON.stringify(nodeId)} is not a UUID`);
    }

    const category = node.task_category;
    if (node.sub_tasks.length === 0) {
      if (category === null) {
        warn(
          "leaf_without_category",
          "task_category",
          `leaf has no task_category; PaperBench needs one of ${TASK_CATEGORIES.join(", ")}`,
        );
      }
    } else if (category !== null) {
      warn(
        "internal_with_category",
        "task_category",
        `node has sub_tasks but task_category ${JSON.stringify(category)}; PaperBench expects null on a node with sub_tasks`,
      );
    }
    if (category !== null && !TASK_SET.has(category)) {
      warn(
        "unknown_category",
        "task_category",
        `task_category ${JSON.stringify(category)} is not one of ${TASK_CATEGORIES.join(", ")}`,
      );
    }
    const fine = node.finegrained_task_category;
    if (fine !== null && !FINEGRAINED_SET.has(fine)) {
      warn(
        "unknown_finegrained_category",
        "finegrained_task_category",
        `finegrained_task_category ${JSON.stringify(fine)} is not one of the ${FINEGRAINED_TASK_CATEGORIES.length} PaperBench categories`,
      );
    }

    const dropped = unknownKeys?.get(node);
    if (dropped) {
      for (const key of dropped) {
        warn("unknown_key", key, `unknown key ${JSON.stringify(key)} was dropped`);
      }
    }
  });
  return warnings;
}
