/**
 * Test-only access to PaperBench's JudgeEval human gradings (`judge_eval/<paper>/expected_result.json`
 * in `PAPERBENCH_DATA_DIR`; never copied into the repository), and small hand-made graded trees.
 */
import fs from "node:fs";
import path from "node:path";
import { PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";
import { parseGradedJson } from "./graded-tree";
import type { MetricSummary } from "@/lib/judge/eval/metrics";
import { AGGREGATED_EXPLANATION, type GradedNode } from "./types";

/** The three human gradings shipped with PaperBench's JudgeEval, and their root scores. */
export const HUMAN_GRADINGS = {
  "all-in-one": 0.7139351851851852,
  pinn: 0.8342145949288806,
  "stay-on-topic-with-classifier-free-guidance": 0.48152958152958153,
} as const;
export type HumanGradingPaper = keyof typeof HUMAN_GRADINGS;

export function gradingFile(paper: string): string {
  return path.join(PAPERBENCH_DATA_DIR, "judge_eval", paper, "expected_result.json");
}

export function readGradingText(paper: string): string {
  return fs.readFileSync(gradingFile(paper), "utf8");
}

export function leaf(
  id: string,
  weight: number,
  score: number,
  category: string | null = "Code Development",
  valid = true,
): GradedNode {
  return {
    id,
    requirements: `requirement ${id}`,
    weight,
    score,
    valid_score: valid,
    task_category: category,
    finegrained_task_category: null,
    explanation: "",
    judge_metadata: null,
    sub_tasks: [],
  };
}

export function node(id: string, weight: number, kids: GradedNode[], valid = true): GradedNode {
  return { ...leaf(id, weight, 0, null, valid), explanation: AGGREGATED_EXPLANATION, sub_tasks: kids };
}

/** The tree of a graded file that must parse (the first error thrown otherwise). */
export function parseTree(text: string): GradedNode {
  const result = parseGradedJson(text);
  if (!result.ok) throw new Error(result.errors[0].message);
  return result.file.tree;
}

/**
 * A reference written from the definitions, independent of the module: per class, precision =
 * TP / (TP + FP), recall = TP / (TP + FN), F1 = 2PR / (P + R), each 0 when undefined; the macro
 * average over the classes that occur in y_true or y_pred (sklearn's default labels).
 */
export function referenceMetrics(yTrue: number[], yPred: number[]): MetricSummary {
  const n = yTrue.length;
  const labels = [0, 1].filter((l) => yTrue.includes(l) || yPred.includes(l));
  const per = labels.map((l) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < n; i++) {
      if (yPred[i] === l && yTrue[i] === l) tp++;
      else if (yPred[i] === l) fp++;
      else if (yTrue[i] === l) fn++;
    }
    const p = tp + fp === 0 ? 0 : tp / (tp + fp);
    const r = tp + fn === 0 ? 0 : tp / (tp + fn);
    const f = p + r === 0 ? 0 : (2 * p * r) / (p + r);
    return { p, r, f };
  });
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const positives = yTrue.filter((y) => y === 1).length;
  return {
    accuracy: yTrue.filter((y, i) => y === yPred[i]).length / n,
    precision: avg(per.map((x) => x.p)),
    recall: avg(per.map((x) => x.r)),
    f1: avg(per.map((x) => x.f)),
    num_samples: n,
    num_positives: positives,
    num_negatives: n - positives,
  };
}
