/**
 * Export of gradings: a PaperBench graded tree (`json.dumps(tree.to_dict(), indent=4)`, keys in
 * `GradedTaskNode.to_dict` order, Python floats), a judge-output wrapper around it, and a CSV of
 * the leaves. Pure; no Node built-ins.
 *
 * Numbers: JavaScript has one number type, Python two. Scores are Python floats in PaperBench
 * (`1.0`, never `1`), so a score is always written as a float (a judge's int leaf score `1`
 * comes back as `1.0`: the same value for PaperBench). Weights are written as ints when integral,
 * as in `rubric.json`. A numeric `valid_score` (PaperBench's `pinn` grading has `1.0`) is written
 * back as a float. Inside `judge_metadata`, `token_usage` and other free JSON an integral float
 * is written as an int (the distinction is lost by `JSON.parse`).
 */
import { PyFloat, pythonJsonDumps } from "@/lib/rubric/python-json";
import { mapTree } from "@/lib/rubric/walk";
import { verdictLeafScore } from "./effective-score";
import { gradedShares, gradedStats, JUDGE_OUTPUT_KEYS, preorder, preorderPaths } from "./graded-tree";
import type { GradedNode, JudgeOutputMeta } from "./types";

/**
 * The tree as PaperBench's `GradedTaskNode.to_dict()` builds it: keys `id, requirements, weight,
 * score, valid_score, task_category, explanation, judge_metadata, sub_tasks` (plus
 * `finegrained_task_category` after `task_category` on nodes whose file had it), scores as
 * `PyFloat`s. Ready for `pythonJsonDumps`.
 */
export function gradedTreeToPython(tree: GradedNode): Record<string, unknown> {
  type PythonNode = Record<string, unknown> & { sub_tasks: PythonNode[] };
  return mapTree(tree, (node): PythonNode => {
    const out: Record<string, unknown> = {
      id: node.id,
      requirements: node.requirements,
      weight: node.weight,
      score: new PyFloat(node.score),
      valid_score: node.file?.validScoreNumber !== undefined ? new PyFloat(node.valid_score ? 1 : 0) : node.valid_score,
      task_category: node.task_category,
    };
    if (node.file?.hasFinegrained) out.finegrained_task_category = node.finegrained_task_category;
    out.explanation = node.explanation;
    out.judge_metadata = node.judge_metadata;
    out.sub_tasks = [];
    return out as PythonNode;
  });
}

/**
 * The graded tree as PaperBench writes it (`json.dumps(tree.to_dict(), indent=4)`). Scores are
 * written as they are in the tree: pass a tree whose scores are current (`GradingScores.toTree`,
 * `recomputeScores`). Import then export of a consistent PaperBench file gives back its bytes.
 */
export function serializeGradedTree(tree: GradedNode): string {
  return pythonJsonDumps(gradedTreeToPython(tree), 4);
}

export interface JudgeOutputOptions {
  /** The wrapper read from a file (key order, unknown keys, judge fields), if any. */
  meta?: JudgeOutputMeta | null;
  /** `judge_type` when there is no `meta` (default `"human"`). */
  judgeType?: string;
  /** `graded_at` when there is no `meta` (default: now, as PaperBench's `get_timestamp`). */
  gradedAt?: string;
}

/** PaperBench's `get_timestamp()` (`time.strftime("%Y-%m-%dT%H-%M-%S-%Z", time.gmtime())` on Linux), e.g. `2025-04-01T12-30-05-GMT`. */
export function paperBenchTimestamp(date: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getUTCFullYear()}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())}` +
    `T${p(date.getUTCHours())}-${p(date.getUTCMinutes())}-${p(date.getUTCSeconds())}-GMT`
  );
}

/**
 * A judge output (`grader_output.json`, PaperBench's `JudgeOutput.to_dict`, indent 4) around the
 * tree: `score`, `num_leaf_nodes` and `num_invalid_leaf_nodes` from the tree as it is now, the
 * other fields from `meta` (in the file's key order, unknown keys kept) or defaults.
 */
export function serializeJudgeOutput(tree: GradedNode, options: JudgeOutputOptions = {}): string {
  const { meta } = options;
  const stats = gradedStats(tree);
  const fields: Record<string, unknown> = {
    judge_type: meta ? meta.judge_type : (options.judgeType ?? "human"),
    score: new PyFloat(tree.score),
    num_leaf_nodes: stats.leaves,
    num_invalid_leaf_nodes: stats.invalidLeaves,
    graded_at: meta ? meta.graded_at : (options.gradedAt ?? paperBenchTimestamp()),
    graded_task_tree: gradedTreeToPython(tree),
    completer_config: meta ? meta.completer_config : null,
    token_usage: meta ? meta.token_usage : null,
    ...(meta ? meta.extra : {}),
  };
  const order: readonly string[] = meta ? meta.keyOrder : JUDGE_OUTPUT_KEYS;
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in fields) out[key] = fields[key];
  for (const key of JUDGE_OUTPUT_KEYS) if (!(key in out)) out[key] = fields[key];
  return pythonJsonDumps(out, 4);
}

// ---------------------------------------------------------------------------------------------
// CSV

/** What the CSV says of a leaf beyond the tree: the judge's score and where the final one came from. */
export interface CsvLeafInfo {
  /** The judge's verdict, `null` when the judge did not grade the leaf. */
  judgeScore: number | null;
  /** `judge`, `human`, `import`, … */
  source: string;
}

export const LEAVES_CSV_COLUMNS = [
  "id",
  "path",
  "requirements",
  "task_category",
  "finegrained_task_category",
  "weight",
  "effective_share",
  "valid",
  "judge_score",
  "final_score",
  "source",
  "explanation",
] as const;

/**
 * One RFC 4180 field: quoted when it holds a comma, a quote, a CR or LF (quotes doubled) or
 * starts or ends with a space. A text field starting with `=`, `+`, `-`, `@`, a tab or a CR gets
 * a leading `'` so that spreadsheets do not run it as a formula (OWASP "CSV injection").
 */
export function csvField(value: string | number | boolean | null, text = false): string {
  if (value === null) return "";
  let s = String(value);
  if (text && /^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n]|^ | $/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The leaves as CSV (header row, CRLF line ends, RFC 4180 quoting), in pre-order: id, JSON path,
 * requirements, categories, weight, effective share of the final score, validity, the judge's
 * score, the final score, its source, the explanation. Numbers are written in full precision.
 * `info(leaf, index)` gives the judge score and source (index: pre-order in `tree`); by default
 * the leaf's own score, source `import`.
 */
export function gradingLeavesCsv(
  tree: GradedNode,
  info: (leaf: GradedNode, index: number) => CsvLeafInfo = (leaf) => ({ judgeScore: leaf.score, source: "import" }),
): string {
  const nodes = preorder(tree);
  const paths = preorderPaths(tree);
  const shares = gradedShares(tree);
  const lines = [LEAVES_CSV_COLUMNS.join(",")];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node.sub_tasks.length > 0) continue;
    const { judgeScore, source } = info(node, i);
    lines.push(
      [
        csvField(node.id, true),
        csvField(paths[i]),
        csvField(node.requirements, true),
        csvField(node.task_category, true),
        csvField(node.finegrained_task_category, true),
        csvField(node.weight),
        csvField(shares[i]),
        csvField(node.valid_score),
        csvField(judgeScore),
        csvField(verdictLeafScore(node.score, node.valid_score)),
        csvField(source, true),
        csvField(node.explanation, true),
      ].join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
