/**
 * PaperBench graded trees: parse a bare graded tree (`expected_result.json`) or a judge output
 * (`grader_output.json`, detected by its `graded_task_tree` key) into `GradedNode`s, with every
 * problem reported by JSON path and nothing half-built (the node checks are the rubric's, in
 * `lib/rubric/tree-reader.ts`); recompute the internal scores from the leaves (the aggregation is
 * `GradingScores`'s, in PaperBench's floating-point order, so that a recomputed root equals the
 * file's root to the last bit); walk and convert graded trees.
 *
 * Pure; no Node built-ins.
 */
import { readJsonText } from "@/lib/rubric/json-text";
import { RUBRIC_LIMITS } from "@/lib/rubric/limits";
import { effectiveShares } from "@/lib/rubric/shares";
import { buildTreeIndex } from "@/lib/rubric/tree-index";
import { treeToRows } from "@/lib/rubric/tree-rows";
import type { RubricNode } from "@/lib/rubric/types";
import {
  describeJsonValue as describe,
  describeNumberish,
  hasOwn,
  isPlainObject,
  MAX_REPORTED_ERRORS,
  readTree,
  TreeIssues,
  type NodeKind,
} from "@/lib/rubric/tree-reader";
import { childKeyPath, mapTree, preorder, ROOT_PATH, rubricStats } from "@/lib/rubric/walk";
import { GradingScores } from "./recompute";
import {
  UNGRADED_EXPLANATION,
  type GradedNode,
  type GradedStats,
  type GradingIssue,
  type GradingWarning,
  type JsonValue,
  type JudgeOutputMeta,
} from "./types";

export { preorder, preorderPaths, ROOT_PATH } from "@/lib/rubric/walk";

/**
 * Limits of an imported graded file, far above PaperBench's largest (`pinn`'s human grading:
 * 3.1 MB, 2,551 nodes, depth 9; a judge output adds the judge's answers in `judge_metadata`).
 */
export const GRADED_LIMITS = {
  /** The rubric's limits on nodes, depth and `requirements`: a graded tree is a rubric, scored. */
  ...RUBRIC_LIMITS,
  /** Size of the file, in UTF-8 bytes (64 MiB). */
  maxBytes: 64 * 1024 * 1024,
  /** Length of one `explanation`, in UTF-16 code units. */
  maxExplanationLength: 1_000_000,
} as const;
export type GradedLimits = { readonly [K in keyof typeof GRADED_LIMITS]: number };

/** The node keys PaperBench's `GradedTaskNode.to_dict` writes, in its order. */
export const GRADED_NODE_KEYS = [
  "id",
  "requirements",
  "weight",
  "score",
  "valid_score",
  "task_category",
  "explanation",
  "judge_metadata",
  "sub_tasks",
] as const;

const KNOWN_NODE_KEYS: ReadonlySet<string> = new Set<string>([...GRADED_NODE_KEYS, "finegrained_task_category"]);

/** The wrapper keys PaperBench's `JudgeOutput.to_dict` writes, in its order. */
export const JUDGE_OUTPUT_KEYS = [
  "judge_type",
  "score",
  "num_leaf_nodes",
  "num_invalid_leaf_nodes",
  "graded_at",
  "graded_task_tree",
  "completer_config",
  "token_usage",
] as const;

// ---------------------------------------------------------------------------------------------
// Aggregation (the weighted mean itself is `GradingScores`'s, in `recompute.ts`)

/**
 * Recomputes every internal node's score from the leaves, in place, bottom-up (PaperBench's
 * `update_all_grades`); returns the root's score.
 */
export function recomputeScoresInPlace(tree: GradedNode): number {
  const scores = GradingScores.fromTree(tree);
  const nodes = scores.nodes;
  for (let i = 0; i < nodes.length; i++) if (!scores.isLeaf(i)) nodes[i].score = scores.scoreOf(i);
  return tree.score;
}

/** A copy of the tree with every internal node's score recomputed from the leaves. */
export function recomputeScores(tree: GradedNode): GradedNode {
  const copy = cloneGradedTree(tree);
  recomputeScoresInPlace(copy);
  return copy;
}

/** A deep copy (judge_metadata is shared: it is never mutated here). */
export function cloneGradedTree(tree: GradedNode): GradedNode {
  return mapTree(tree, (node): GradedNode => ({
    ...node,
    file: node.file ? { ...node.file } : undefined,
    sub_tasks: [],
  }));
}

// ---------------------------------------------------------------------------------------------
// Walking

/** The first node with this id in pre-order (PaperBench's `find`), or `null`. */
export function findGradedNode(tree: GradedNode, id: string): GradedNode | null {
  const stack: GradedNode[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.id === id) return node;
    for (let i = node.sub_tasks.length - 1; i >= 0; i--) stack.push(node.sub_tasks[i]);
  }
  return null;
}

export function gradedStats(tree: GradedNode): GradedStats {
  let invalidLeaves = 0;
  for (const node of preorder(tree)) if (node.sub_tasks.length === 0 && !node.valid_score) invalidLeaves++;
  const { nodes, leaves, depth } = rubricStats(tree);
  return { nodes, leaves, invalidLeaves, depth };
}

/**
 * Each node's share of the root's score, in pre-order (`lib/rubric/shares.ts`): the product along
 * its path of weight / Σ sibling weights; the leaves' shares add up to 1 unless a sibling group
 * weighs 0.
 */
export function gradedShares(tree: GradedNode): number[] {
  let next = 0;
  const rows = treeToRows(tree, () => String(next++)); // keys "0", "1", … in pre-order
  const shares = effectiveShares(buildTreeIndex(rows));
  const out = new Array<number>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = shares.get(String(i)) ?? 0;
  return out;
}

/** The rubric a graded tree was graded against (grading fields dropped). */
export function toRubricTree(tree: GradedNode): RubricNode {
  return mapTree(tree, (node): RubricNode => ({
    id: node.id,
    requirements: node.requirements,
    weight: node.weight,
    sub_tasks: [],
    task_category: node.task_category,
    finegrained_task_category: node.finegrained_task_category,
  }));
}

/**
 * An ungraded tree for a rubric, as PaperBench's `GradedTaskNode` defaults it: score 0, not valid,
 * `UNGRADED_EXPLANATION`. Scores then come from verdicts (`GradingScores.setLeaf`).
 */
export function ungradedTree(rubric: RubricNode): GradedNode {
  return mapTree(rubric, (node): GradedNode => ({
    id: node.id,
    requirements: node.requirements,
    weight: node.weight,
    score: 0,
    valid_score: false,
    task_category: node.task_category,
    finegrained_task_category: node.finegrained_task_category,
    explanation: UNGRADED_EXPLANATION,
    judge_metadata: null,
    sub_tasks: [],
  }));
}

// ---------------------------------------------------------------------------------------------
// Parsing

export type GradedFileKind = "graded_tree" | "judge_output";

export interface ParsedGradedFile {
  kind: GradedFileKind;
  /** The tree, internal scores recomputed from the leaves (equal to the file's when consistent). */
  tree: GradedNode;
  /** The wrapper's fields for a judge output; `null` for a bare tree. */
  judgeOutput: JudgeOutputMeta | null;
  /** The root score written in the file's tree. */
  fileRootScore: number;
  /** `true` when the recomputed root score is the file's, bit for bit. */
  rootMatchesFile: boolean;
  stats: GradedStats;
}

export type ParseGradedResult =
  { ok: true; file: ParsedGradedFile; warnings: GradingWarning[] } | { ok: false; errors: GradingIssue[] };

/** `path: message`, e.g. `graded_task_tree.sub_tasks[3].score: must be a number, got a string`. */
export function formatGradingIssue(issue: GradingIssue): string {
  return `${issue.path}: ${issue.message}`;
}

/**
 * Parse the text of a graded tree or a judge output. Refused (`ok: false`, nothing built) when
 * over the size limit, not JSON (with line and column), or malformed (every problem, up to
 * `MAX_REPORTED_ERRORS`, with its JSON path). A leading byte-order mark is ignored.
 */
export function parseGradedJson(text: string, limits: GradedLimits = GRADED_LIMITS): ParseGradedResult {
  const read = readJsonText(text, limits.maxBytes);
  if (!read.ok) return { ok: false, errors: [read.issue] };
  return parseGradedValue(read.value, limits);
}

/** Validate an already-parsed JSON value as a graded tree or a judge output (see `parseGradedJson`). */
export function parseGradedValue(value: unknown, limits: GradedLimits = GRADED_LIMITS): ParseGradedResult {
  const issues = new TreeIssues();
  const warnings: GradingWarning[] = [];
  const warningCounts = new Map<string, number>();
  const warn = (code: GradingWarning["code"], path: string, message: string): void => {
    const n = (warningCounts.get(code) ?? 0) + 1;
    warningCounts.set(code, n);
    if (n <= MAX_REPORTED_ERRORS) warnings.push({ code, path, message });
  };

  if (!isPlainObject(value)) {
    issues.fail(ROOT_PATH, `must be an object (a graded tree or a judge output), got ${describe(value)}`);
    return { ok: false, errors: issues.errors };
  }

  // The wrapper.
  let treeValue: unknown = value;
  let treePath = ROOT_PATH;
  let meta: JudgeOutputMeta | null = null;
  const isWrapper = hasOwn(value, "graded_task_tree");
  if (isWrapper) {
    treeValue = value.graded_task_tree;
    treePath = "graded_task_tree";
    meta = parseWrapper(value, issues);
  }

  // The tree.
  const fileScores = new Map<GradedNode, number>();
  const pathOf = new Map<GradedNode, string>();
  const gradedNode: NodeKind<GradedNode> = {
    keys: KNOWN_NODE_KEYS,
    build: (raw, path, common, sub_tasks) => {
      const score = readScore(raw, path, issues);
      let valid = false;
      let validScoreNumber: number | undefined;
      if (!hasOwn(raw, "valid_score")) issues.fail(childKeyPath(path, "valid_score"), "is required");
      else if (typeof raw.valid_score === "boolean") valid = raw.valid_score;
      else if (raw.valid_score === 0 || raw.valid_score === 1) {
        // Python reads `1.0` as true (`not 1.0` is False); keep the number for the export.
        valid = raw.valid_score === 1;
        validScoreNumber = raw.valid_score;
      } else
        issues.fail(childKeyPath(path, "valid_score"), `must be a boolean, got ${describeNumberish(raw.valid_score)}`);

      const node: GradedNode = {
        id: common.id,
        requirements: common.requirements,
        weight: common.weight,
        score,
        valid_score: valid,
        task_category: common.task_category,
        finegrained_task_category: common.finegrained_task_category,
        explanation: issues.string(raw, path, "explanation", limits.maxExplanationLength),
        judge_metadata: hasOwn(raw, "judge_metadata") ? (raw.judge_metadata as JsonValue) : null,
        sub_tasks,
      };
      const hasFinegrained = hasOwn(raw, "finegrained_task_category");
      if (validScoreNumber !== undefined || hasFinegrained) {
        node.file = {};
        if (validScoreNumber !== undefined) node.file.validScoreNumber = validScoreNumber;
        if (hasFinegrained) node.file.hasFinegrained = true;
      }
      fileScores.set(node, score);
      pathOf.set(node, path);
      return node;
    },
    unknownKey: (_node, key, path) =>
      warn("unknown_key", childKeyPath(path, key), "is not a key of a PaperBench graded node; dropped"),
  };
  const { tree, stats: read } = readTree(treeValue, treePath, limits, gradedNode, issues);
  if (issues.errors.length > 0 || tree === null || (isWrapper && meta === null))
    return { ok: false, errors: issues.errors };

  // Consistency: recompute the internal scores and say where the file differs.
  const fileRootScore = tree.score;
  const order = preorder(tree);
  const seen = new Set<string>();
  const reported = new Set<string>();
  let invalidLeaves = 0;
  for (const node of order) {
    if (seen.has(node.id)) {
      if (!reported.has(node.id)) {
        reported.add(node.id);
        warn(
          "duplicate_id",
          pathOf.get(node)!,
          `the id ${JSON.stringify(node.id)} is used by several nodes; a lookup by id finds the first`,
        );
      }
    } else seen.add(node.id);
    if (node.sub_tasks.length === 0 && !node.valid_score) {
      invalidLeaves++;
      if (node.score !== 0) {
        warn(
          "invalid_leaf_scored",
          childKeyPath(pathOf.get(node)!, "score"),
          `is ${node.score} on an invalid leaf, which counts 0`,
        );
      }
    }
  }
  recomputeScoresInPlace(tree);
  for (const node of order) {
    const written = fileScores.get(node)!;
    if (node.sub_tasks.length > 0 && node.score !== written) {
      warn(
        "score_mismatch",
        childKeyPath(pathOf.get(node)!, "score"),
        `is ${written} in the file; the children give ${node.score}`,
      );
    }
  }
  const stats: GradedStats = { nodes: read.nodes, leaves: read.leaves, invalidLeaves, depth: read.depth };
  if (meta) {
    if (meta.score !== fileRootScore) {
      warn("wrapper_score_mismatch", "score", `is ${meta.score}; the tree's root score is ${fileRootScore}`);
    }
    if (meta.num_leaf_nodes !== stats.leaves) {
      warn(
        "wrapper_count_mismatch",
        "num_leaf_nodes",
        `is ${meta.num_leaf_nodes}; the tree has ${stats.leaves} leaves`,
      );
    }
    if (meta.num_invalid_leaf_nodes !== stats.invalidLeaves) {
      warn(
        "wrapper_count_mismatch",
        "num_invalid_leaf_nodes",
        `is ${meta.num_invalid_leaf_nodes}; the tree has ${stats.invalidLeaves} invalid leaves`,
      );
    }
  }
  for (const [code, n] of warningCounts) {
    if (n > MAX_REPORTED_ERRORS) {
      warnings.push({
        code: code as GradingWarning["code"],
        path: treePath,
        message: `… and ${n - MAX_REPORTED_ERRORS} more like this`,
      });
    }
  }

  return {
    ok: true,
    file: {
      kind: isWrapper ? "judge_output" : "graded_tree",
      tree,
      judgeOutput: meta,
      fileRootScore,
      rootMatchesFile: Object.is(tree.score, fileRootScore),
      stats,
    },
    warnings,
  };
}

/** A `score` (a node's, or a judge output's at `path` `(root)`): a number in [0, 1] (0 after an error). */
function readScore(obj: Record<string, unknown>, path: string, issues: TreeIssues, range = true): number {
  const at = childKeyPath(path, "score");
  if (!hasOwn(obj, "score")) issues.fail(at, "is required");
  else if (typeof obj.score !== "number") issues.fail(at, `must be a number, got ${describe(obj.score)}`);
  else if (range && !(obj.score >= 0 && obj.score <= 1))
    issues.fail(at, `must be a number between 0 and 1, got ${obj.score}`);
  else return obj.score;
  return 0;
}

/** The judge output's fields around its tree; `null` when one is missing or malformed. */
function parseWrapper(value: Record<string, unknown>, issues: TreeIssues): JudgeOutputMeta | null {
  const errorsBefore = issues.errors.length;
  const count = (key: string): number => {
    if (!hasOwn(value, key)) return (issues.fail(key, "is required"), 0);
    const v = value[key];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
      return (issues.fail(key, `must be a whole number >= 0, got ${describeNumberish(v)}`), 0);
    }
    return v;
  };
  const judge_type = issues.string(value, ROOT_PATH, "judge_type");
  const score = readScore(value, ROOT_PATH, issues, false);
  const num_leaf_nodes = count("num_leaf_nodes");
  const num_invalid_leaf_nodes = count("num_invalid_leaf_nodes");
  const graded_at = issues.string(value, ROOT_PATH, "graded_at");
  const extra: Record<string, JsonValue> = {};
  const known = new Set<string>(JUDGE_OUTPUT_KEYS);
  const keyOrder: string[] = [];
  for (const key in value) {
    if (!hasOwn(value, key)) continue;
    keyOrder.push(key);
    if (!known.has(key)) extra[key] = value[key] as JsonValue;
  }
  if (issues.errors.length > errorsBefore) return null;
  return {
    judge_type,
    score,
    num_leaf_nodes,
    num_invalid_leaf_nodes,
    graded_at,
    completer_config: hasOwn(value, "completer_config") ? (value.completer_config as JsonValue) : null,
    token_usage: hasOwn(value, "token_usage") ? (value.token_usage as JsonValue) : null,
    keyOrder,
    extra,
  };
}
