/**
 * JudgeEval: how well a judge's grading agrees with a human's, leaf by leaf, as PaperBench's
 * `paperbench/judge/judge_eval/evaluate.py` and `scripts/run_judge_eval.py` compute it.
 *
 * - Samples: the judge tree is walked depth-first; a node whose `valid_score` is false is skipped
 *   with its whole subtree (PaperBench's `_get_leaf_node_scores`), so invalid judge leaves are
 *   left out. Each remaining judge leaf is matched to the first node of the human tree with its id
 *   (PaperBench's `expected_result.find(task.id)`): y_pred is the judge leaf's score, y_true the
 *   human node's. Beyond PaperBench: a judge leaf whose id is not in the human tree is left out
 *   (PaperBench raises) and so is one whose human leaf is invalid (`valid_score` false: no ground
 *   truth); both are listed in `excluded`. Real human gradings have no invalid leaves.
 * - Metrics: sklearn's `accuracy_score`, and `precision_score` / `recall_score` / `f1_score` with
 *   `average="macro", zero_division=0`: per class, precision tp/(predicted), recall tp/(true),
 *   F1 2·tp/(true + predicted), each 0 when its denominator is 0; the macro average is over the
 *   labels present in y_true or y_pred (sklearn's default `labels`: both 0 and 1 whenever both
 *   occur; a class nobody predicted still counts, with precision 0). num_positives = Σ y_true.
 * - Stratified by the judge leaf's `task_category`; pooled over any number of (human, judge)
 *   pairs by concatenating their samples (PaperBench's aggregate over examples).
 *
 * Scores must be 0 or 1 (PaperBench's leaves are; sklearn refuses continuous targets).
 * Pure; no Node built-ins.
 */
import { TASK_CATEGORIES } from "@/lib/rubric/types";
import {
  findGradedNode,
  formatGradingIssue,
  gradedShares,
  parseGradedJson,
  preorder,
  preorderPaths,
} from "@/lib/grading/graded-tree";
import { GradingInputError } from "@/lib/grading/recompute";
import { PyFloat, pythonJsonDumps } from "@/lib/rubric/python-json";
import { gradedTreeToPython } from "@/lib/grading/serialize";
import type { GradedNode, JsonValue } from "@/lib/grading/types";

/** PaperBench's `MetricSummary`. */
export interface MetricSummary {
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  num_samples: number;
  num_positives: number;
  num_negatives: number;
}

/** Key order of the command line's output. */
export const METRIC_KEYS = [
  "accuracy",
  "precision",
  "recall",
  "f1",
  "num_samples",
  "num_positives",
  "num_negatives",
] as const;
/** Key order of PaperBench's `MetricSummary` dataclass (`asdict`, as in `results.json`). */
export const PAPERBENCH_METRIC_KEYS = [
  "accuracy",
  "precision",
  "recall",
  "f1",
  "num_positives",
  "num_negatives",
  "num_samples",
] as const;

/** Counts with the human as truth: rows = human 0/1, columns = judge 0/1 (sklearn's `confusion_matrix`). */
export interface ConfusionMatrix {
  /** human 0, judge 0 */
  tn: number;
  /** human 0, judge 1 */
  fp: number;
  /** human 1, judge 0 */
  fn: number;
  /** human 1, judge 1 */
  tp: number;
}

/** The category key of a leaf: its `task_category`, `"null"` when none (as Python's json writes a None key). */
export function categoryKey(category: string | null): string {
  return category === null ? "null" : category;
}

function label01(value: number, what: string): 0 | 1 {
  if (value === 0 || value === 1) return value;
  throw new GradingInputError(`${what}: JudgeEval needs scores of 0 or 1, got ${value}`);
}

/**
 * PaperBench's `compute_metrics(y_true, y_pred)` (sklearn, macro, zero_division=0). All zeros
 * for no samples (sklearn would refuse).
 */
export function computeMetrics(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): MetricSummary {
  const n = yTrue.length;
  if (yPred.length !== n) throw new GradingInputError(`y_true has ${n} samples and y_pred ${yPred.length}`);
  const c = confusionOf(yTrue, yPred);
  return metricsFromConfusion(c);
}

/** The confusion matrix of binary labels. */
export function confusionOf(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): ConfusionMatrix {
  const m: ConfusionMatrix = { tn: 0, fp: 0, fn: 0, tp: 0 };
  for (let i = 0; i < yTrue.length; i++) {
    const t = label01(yTrue[i], `y_true[${i}]`);
    const p = label01(yPred[i], `y_pred[${i}]`);
    if (t === 1) {
      if (p === 1) m.tp++;
      else m.fn++;
    } else if (p === 1) m.fp++;
    else m.tn++;
  }
  return m;
}

/** The metrics of a confusion matrix, as sklearn computes them from the samples. */
export function metricsFromConfusion(m: ConfusionMatrix): MetricSummary {
  const n = m.tn + m.fp + m.fn + m.tp;
  const num_positives = m.tp + m.fn;
  if (n === 0) {
    return { accuracy: 0, precision: 0, recall: 0, f1: 0, num_samples: 0, num_positives: 0, num_negatives: 0 };
  }
  // Per class: [tp, predicted, true].
  const classes: [number, number, number][] = [
    [m.tn, m.tn + m.fn, m.tn + m.fp], // class 0
    [m.tp, m.tp + m.fp, m.tp + m.fn], // class 1
  ];
  const present = classes.filter(([, predicted, truth]) => predicted + truth > 0);
  const divide = (a: number, b: number) => (b === 0 ? 0 : a / b);
  // numpy's mean of one or two numbers: (0 + a + b) / count.
  const mean = (values: number[]) => {
    let sum = 0;
    for (const v of values) sum += v;
    return sum / values.length;
  };
  return {
    accuracy: (m.tn + m.tp) / n,
    precision: mean(present.map(([tp, predicted]) => divide(tp, predicted))),
    recall: mean(present.map(([tp, , truth]) => divide(tp, truth))),
    f1: mean(present.map(([tp, predicted, truth]) => divide(2 * tp, truth + predicted))),
    num_samples: n,
    num_positives,
    num_negatives: n - num_positives,
  };
}

/**
 * Cohen's κ of two raters' binary labels (sklearn's `cohen_kappa_score`, unweighted): observed
 * agreement against the agreement their label rates give by chance, (pₒ − pₑ) / (1 − pₑ). Null
 * when it is undefined: no samples, or both raters gave one and the same label throughout (pₑ = 1;
 * sklearn answers NaN). Symmetric in the two raters.
 */
export function cohensKappa(m: ConfusionMatrix): number | null {
  const n = m.tn + m.fp + m.fn + m.tp;
  if (n === 0) return null;
  const observed = (m.tn + m.tp) / n;
  // Rows: the first rater's 0 / 1; columns: the second's.
  const expected = ((m.tn + m.fp) * (m.tn + m.fn) + (m.fn + m.tp) * (m.fp + m.tp)) / (n * n);
  return expected === 1 ? null : (observed - expected) / (1 - expected);
}

export interface JudgeEvalPair {
  /** Shown in disagreements and errors (a paper id, a submission). Default `#<index>`. */
  label?: string;
  /** The human grading (ground truth). */
  human: GradedNode;
  /** The judge's grading. */
  judge: GradedNode;
}

/** One compared leaf. */
export interface JudgeEvalSample {
  /** Index of the pair in the input. */
  pair: number;
  label: string;
  /** Pre-order index of the leaf in the judge's tree. */
  index: number;
  id: string;
  /** JSON path of the leaf in the judge's tree. */
  path: string;
  requirements: string;
  category: string | null;
  human: 0 | 1;
  judge: 0 | 1;
  /** The leaf's effective share of the judge tree's final score: how much flipping it moves the score. */
  share: number;
}

/** A leaf left out of the samples, and why. */
export interface ExcludedLeaf extends Pick<JudgeEvalSample, "pair" | "label" | "index" | "id" | "path"> {
  reason: "invalid_judge" | "invalid_human" | "unmatched";
}

export interface JudgeEvalGroup {
  overall: MetricSummary;
  /** Per `task_category` key (see `categoryKey`). */
  stratified: Record<string, MetricSummary>;
  confusion: ConfusionMatrix;
  stratifiedConfusion: Record<string, ConfusionMatrix>;
}

export interface JudgeEvalReport extends JudgeEvalGroup {
  /** Each pair on its own (stratified in the order categories first appear, as PaperBench's per-example metrics). */
  perPair: (JudgeEvalGroup & { label: string })[];
  samples: JudgeEvalSample[];
  /** Samples where judge and human differ, the largest effective share first. */
  disagreements: JudgeEvalSample[];
  excluded: ExcludedLeaf[];
}

/** The samples of one pair (see the module comment), and what was left out. */
export function collectSamples(
  pair: JudgeEvalPair,
  pairIndex = 0,
): { samples: JudgeEvalSample[]; excluded: ExcludedLeaf[] } {
  const label = pair.label ?? `#${pairIndex}`;
  const nodes = preorder(pair.judge);
  const paths = preorderPaths(pair.judge);
  const shares = gradedShares(pair.judge);
  const position = new Map<GradedNode, number>();
  nodes.forEach((node, i) => position.set(node, i));
  const samples: JudgeEvalSample[] = [];
  const excluded: ExcludedLeaf[] = [];
  const humanById = new Map<string, GradedNode | null>();
  const findHuman = (id: string): GradedNode | null => {
    if (!humanById.has(id)) humanById.set(id, findGradedNode(pair.human, id));
    return humanById.get(id)!;
  };
  // Depth-first, skipping the subtree of an invalid node.
  const stack: [GradedNode, boolean][] = [[pair.judge, false]];
  while (stack.length > 0) {
    const [node, underInvalid] = stack.pop()!;
    const invalid = underInvalid || !node.valid_score;
    const i = position.get(node)!;
    if (node.sub_tasks.length > 0) {
      for (let k = node.sub_tasks.length - 1; k >= 0; k--) stack.push([node.sub_tasks[k], invalid]);
      continue;
    }
    const base = { pair: pairIndex, label, index: i, id: node.id, path: paths[i] };
    if (invalid) {
      excluded.push({ ...base, reason: "invalid_judge" });
      continue;
    }
    const human = findHuman(node.id);
    if (human === null) {
      excluded.push({ ...base, reason: "unmatched" });
      continue;
    }
    if (human.sub_tasks.length === 0 && !human.valid_score) {
      excluded.push({ ...base, reason: "invalid_human" });
      continue;
    }
    samples.push({
      ...base,
      requirements: node.requirements,
      category: node.task_category,
      human: label01(human.score, `${label}: human score of ${JSON.stringify(node.id)}`),
      judge: label01(node.score, `${label}: judge score at ${paths[i]}`),
      share: shares[i],
    });
  }
  return { samples, excluded };
}

function groupOf(samples: readonly JudgeEvalSample[], categoryOrder: "paperbench" | "first-seen"): JudgeEvalGroup {
  const byCategory = new Map<string, JudgeEvalSample[]>();
  if (categoryOrder === "paperbench") for (const c of TASK_CATEGORIES) byCategory.set(c, []);
  for (const s of samples) {
    const key = categoryKey(s.category);
    const list = byCategory.get(key);
    if (list) list.push(s);
    else byCategory.set(key, [s]);
  }
  const matrix = (list: readonly JudgeEvalSample[]) =>
    confusionOf(
      list.map((s) => s.human),
      list.map((s) => s.judge),
    );
  const confusion = matrix(samples);
  const stratified: Record<string, MetricSummary> = {};
  const stratifiedConfusion: Record<string, ConfusionMatrix> = {};
  for (const [key, list] of byCategory) {
    if (list.length === 0) continue;
    stratifiedConfusion[key] = matrix(list);
    stratified[key] = metricsFromConfusion(stratifiedConfusion[key]);
  }
  return { overall: metricsFromConfusion(confusion), stratified, confusion, stratifiedConfusion };
}

/**
 * JudgeEval over any number of (human, judge) pairs, pooled (overall and per `task_category`,
 * known categories first in PaperBench's order, a category only when it has samples), each pair
 * on its own, the confusion matrices, and the disagreements ranked by effective share.
 * Throws `GradingInputError` on a compared score other than 0 or 1.
 */
export function evaluateJudge(pairs: readonly JudgeEvalPair[]): JudgeEvalReport {
  const samples: JudgeEvalSample[] = [];
  const excluded: ExcludedLeaf[] = [];
  const perPair: JudgeEvalReport["perPair"] = [];
  pairs.forEach((pair, p) => {
    const one = collectSamples(pair, p);
    samples.push(...one.samples);
    excluded.push(...one.excluded);
    perPair.push({ label: pair.label ?? `#${p}`, ...groupOf(one.samples, "first-seen") });
  });
  const disagreements = samples
    .filter((s) => s.human !== s.judge)
    .sort((a, b) => b.share - a.share || a.pair - b.pair || a.index - b.index);
  return { ...groupOf(samples, "paperbench"), perPair, samples, disagreements, excluded };
}

// ---------------------------------------------------------------------------------------------
// Output

function metricsToPython(m: MetricSummary, keys: readonly (keyof MetricSummary)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const v = m[key];
    out[key] = key === "accuracy" || key === "precision" || key === "recall" || key === "f1" ? new PyFloat(v) : v;
  }
  return out;
}

function groupToPython(group: Pick<JudgeEvalGroup, "overall" | "stratified">, keys: readonly (keyof MetricSummary)[]) {
  const stratified: Record<string, unknown> = {};
  for (const [key, m] of Object.entries(group.stratified)) stratified[key] = metricsToPython(m, keys);
  return { overall: metricsToPython(group.overall, keys), stratified };
}

/**
 * The command line's output: `{"overall": {...}, "stratified": {"Code Development": {...}, ...}}`,
 * each `{...}` with `accuracy, precision, recall, f1, num_samples, num_positives, num_negatives`
 * (floats as Python writes them), indented 2, ending with a newline.
 */
export function formatJudgeEvalSummary(report: Pick<JudgeEvalGroup, "overall" | "stratified">): string {
  return pythonJsonDumps(groupToPython(report, METRIC_KEYS), 2) + "\n";
}

export interface JudgeEvalExample {
  example_id: string;
  paper_id: string;
  /** The judge's graded tree of this example. */
  judge: GradedNode;
  token_usage?: JsonValue;
  judge_kwargs?: JsonValue;
}

export interface JudgeEvalResultsOptions {
  judge_type: string;
  code_only?: boolean;
  judge_kwargs?: JsonValue;
  /** One per pair of the report, in the same order. */
  examples: readonly JudgeEvalExample[];
  aggregate_token_usage?: JsonValue;
  /** PaperBench's `%Y%m%d_%H%M%S`; default now, local time. */
  timestamp?: string;
}

function localTimestamp(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}_${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/**
 * The report as PaperBench's JudgeEval `results.json` (`JudgeEvalResult.to_dict()`, `json.dump(...,
 * indent=2)`): `judge_type, code_only, judge_kwargs, results[{example_id, paper_id, judge_type,
 * judge_kwargs, metrics{overall, stratified}, token_usage, graded_task_tree}], aggregate_metrics,
 * aggregate_token_usage, timestamp`; metrics in `MetricSummary` field order; the aggregate
 * stratified over the three PaperBench categories (zeros for one without samples).
 */
export function judgeEvalResultsJson(report: JudgeEvalReport, options: JudgeEvalResultsOptions): string {
  if (options.examples.length !== report.perPair.length) {
    throw new GradingInputError(`${options.examples.length} examples for ${report.perPair.length} pairs`);
  }
  const judgeKwargs = options.judge_kwargs ?? null;
  const aggregateStratified: Record<string, MetricSummary> = {};
  for (const c of TASK_CATEGORIES)
    aggregateStratified[c] = report.stratified[c] ?? metricsFromConfusion({ tn: 0, fp: 0, fn: 0, tp: 0 });
  const out = {
    judge_type: options.judge_type,
    code_only: options.code_only ?? false,
    judge_kwargs: judgeKwargs,
    results: options.examples.map((example, i) => ({
      example_id: example.example_id,
      paper_id: example.paper_id,
      judge_type: options.judge_type,
      judge_kwargs: example.judge_kwargs ?? judgeKwargs,
      metrics: groupToPython(report.perPair[i], PAPERBENCH_METRIC_KEYS),
      token_usage: example.token_usage ?? null,
      graded_task_tree: gradedTreeToPython(example.judge),
    })),
    aggregate_metrics: groupToPython(
      { overall: report.overall, stratified: aggregateStratified },
      PAPERBENCH_METRIC_KEYS,
    ),
    aggregate_token_usage: options.aggregate_token_usage ?? null,
    timestamp: options.timestamp ?? localTimestamp(),
  };
  return pythonJsonDumps(out, 2);
}

// ---------------------------------------------------------------------------------------------
// Files

export type EvaluateFilesResult =
  { ok: true; report: JudgeEvalReport; notes: string[] } | { ok: false; errors: string[] };

/**
 * JudgeEval of two graded files (bare trees or judge outputs), matched by leaf id: the command
 * line's `grading eval`. Errors name the file and the JSON path; notes say what was left out.
 */
export function evaluateGradedFiles(
  human: { name: string; text: string },
  judge: { name: string; text: string },
): EvaluateFilesResult {
  const errors: string[] = [];
  const parsed = [human, judge].map((file) => {
    const result = parseGradedJson(file.text);
    if (!result.ok) for (const issue of result.errors) errors.push(`${file.name}: ${formatGradingIssue(issue)}`);
    return result.ok ? result.file.tree : null;
  });
  if (errors.length > 0 || !parsed[0] || !parsed[1]) return { ok: false, errors };
  let report: JudgeEvalReport;
  try {
    report = evaluateJudge([{ label: judge.name, human: parsed[0], judge: parsed[1] }]);
  } catch (err) {
    if (err instanceof GradingInputError) return { ok: false, errors: [err.message] };
    throw err;
  }
  const notes: string[] = [];
  const count = (reason: ExcludedLeaf["reason"]) => report.excluded.filter((e) => e.reason === reason).length;
  const invalidJudge = count("invalid_judge");
  const invalidHuman = count("invalid_human");
  const unmatched = report.excluded.filter((e) => e.reason === "unmatched");
  if (invalidJudge) notes.push(`${invalidJudge} invalid leaf/leaves of ${judge.name} left out`);
  if (invalidHuman) notes.push(`${invalidHuman} leaf/leaves invalid in ${human.name} left out`);
  if (unmatched.length) {
    notes.push(
      `${unmatched.length} leaf/leaves of ${judge.name} have no node with their id in ${human.name}, left out` +
        ` (first: ${unmatched[0].path} ${JSON.stringify(unmatched[0].id)})`,
    );
  }
  return { ok: true, report, notes };
}
