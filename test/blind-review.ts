/**
 * What the blind-review tests share (issue 10, item 5): the demo rubric graded with verdicts whose
 * aggregates are fractions (so an aggregate is never mistaken for a leaf's 0 or 1), and the check
 * that an answer carries no score aggregating a verdict hidden from its reader.
 */
import fs from "node:fs";
import path from "node:path";
import { recomputeScoresInPlace } from "@/lib/grading/graded-tree";
import { serializeGradedTree } from "@/lib/grading/serialize";
import type { GradedNode } from "@/lib/grading/types";
import { ReviewModel } from "@/lib/review/review-model";
import type { ReviewPayload } from "@/lib/review/types";
import type { RubricNode } from "@/lib/rubric/types";

export const DEMO_DIR = path.join(import.meta.dirname, "..", "rubrics", "demo");

/**
 * The demo rubric as a graded tree (PaperBench's JSON, internal and root scores recomputed as
 * PaperBench writes them): leaf i scores 1 when (i · 7 + seed) mod 5 < 2, else 0. Different seeds
 * give different root scores.
 */
export function gradedDemoText(seed: number): string {
  const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8")) as RubricNode;
  let n = 0;
  const convert = (node: RubricNode): GradedNode => {
    const leaf = node.sub_tasks.length === 0;
    const i = leaf ? n++ : -1;
    return {
      id: node.id,
      requirements: node.requirements,
      weight: node.weight,
      score: leaf && (i * 7 + seed) % 5 < 2 ? 1 : 0,
      valid_score: true,
      task_category: node.task_category,
      finegrained_task_category: node.finegrained_task_category,
      explanation: leaf ? `blind fixture verdict ${i}` : "Aggregated score from sub-tasks.",
      judge_metadata: null,
      sub_tasks: node.sub_tasks.map(convert),
    };
  };
  const tree = convert(rubric);
  recomputeScoresInPlace(tree);
  return serializeGradedTree(tree);
}

/**
 * The aggregates a reader must not be given when `hidden` leaves are hidden from them: the score
 * (effective, and as the verdicts alone give it) of every node above a hidden leaf, root included,
 * read from a payload that sees everything (staff's) with the review page's own aggregation. Only
 * fractions: 0 and 1 are also a leaf's score.
 */
export function forbiddenAggregates(everything: ReviewPayload, hidden: Iterable<string>): Set<number> {
  const model = new ReviewModel(everything);
  const parentOf = new Map(everything.nodes.map((n) => [n.key, n.parentKey]));
  const above = new Set<string>();
  for (const leaf of hidden)
    for (let p = parentOf.get(leaf) ?? null; p !== null; p = parentOf.get(p) ?? null) above.add(p);
  const out = new Set<number>();
  for (const key of above) {
    for (const score of [model.scoreOf(key), model.verdictScoreOf(key)])
      if (score !== null && score !== 0 && score !== 1) out.add(score);
  }
  return out;
}

/** Every number in a JSON value. */
export function numbersIn(value: unknown, out: number[] = []): number[] {
  if (typeof value === "number") out.push(value);
  else if (Array.isArray(value)) for (const v of value) numbersIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) numbersIn(v, out);
  return out;
}

/** The forbidden numbers an answer carries (none, when it leaks nothing). */
export function leakedAggregates(answer: unknown, forbidden: ReadonlySet<number>): number[] {
  return numbersIn(answer).filter((n) => forbidden.has(n));
}
