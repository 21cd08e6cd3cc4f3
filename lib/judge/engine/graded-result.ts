/**
 * The PaperBench graded tree of a run: the judged rubric with each leaf's (or pseudo-leaf's)
 * verdict, internal scores recomputed by the project's one aggregation. A pseudo-leaf stands for
 * its subtree (its children are not in the tree, as in SimpleJudge). A parent with an invalid
 * leaf below says so in its explanation (PaperBench calls every parent valid and silent).
 */
import { recomputeScoresInPlace } from "@/lib/grading/graded-tree";
import { AGGREGATED_EXPLANATION, UNGRADED_EXPLANATION, type GradedNode, type JsonValue } from "@/lib/grading/types";
import type { JudgeRubricNode, LeafVerdict } from "../engine-contract";
import { isGradedWhole, ROOT_DEPTH } from "./rubric-plan";
import { usageByModel } from "./usage";

export type GradedTree = GradedNode;

function leafMetadata(v: LeafVerdict): JsonValue {
  return {
    token_usage: usageByModel(v.calls) as unknown as JsonValue,
    calls: v.calls as unknown as JsonValue,
    evidence: v.evidence as unknown as JsonValue,
    subtree: v.subtree,
  };
}

/** Verdicts by key; leaves without one stay ungraded (invalid, PaperBench's "not yet graded"). */
export function buildGradedTree(
  tree: JudgeRubricNode,
  maxDepth: number | null,
  verdicts: ReadonlyMap<string, LeafVerdict>,
): GradedTree {
  const invalidBelow = new Map<GradedNode, { invalid: number; leaves: number }>();
  const build = (node: JudgeRubricNode, depth: number): GradedNode => {
    const base = {
      id: node.id,
      requirements: node.requirements,
      weight: node.weight,
      task_category: node.task_category,
      finegrained_task_category: node.finegrained_task_category,
    };
    if (isGradedWhole(node, depth, maxDepth)) {
      const v = verdicts.get(node.key);
      const leaf: GradedNode = v
        ? {
            ...base,
            score: v.valid ? v.score : 0,
            valid_score: v.valid,
            explanation: v.explanation,
            judge_metadata: leafMetadata(v),
            sub_tasks: [],
          }
        : {
            ...base,
            score: 0,
            valid_score: false,
            explanation: UNGRADED_EXPLANATION,
            judge_metadata: null,
            sub_tasks: [],
          };
      invalidBelow.set(leaf, { invalid: leaf.valid_score ? 0 : 1, leaves: 1 });
      return leaf;
    }
    const sub_tasks = node.sub_tasks.map((c) => build(c, depth + 1));
    const counts = { invalid: 0, leaves: 0 };
    for (const c of sub_tasks) {
      const n = invalidBelow.get(c)!;
      counts.invalid += n.invalid;
      counts.leaves += n.leaves;
    }
    const explanation =
      counts.invalid === 0
        ? AGGREGATED_EXPLANATION
        : `${AGGREGATED_EXPLANATION} ${counts.invalid} of the ${counts.leaves} criteria below could not be graded (invalid) and count 0.`;
    const parent: GradedNode = { ...base, score: 0, valid_score: true, explanation, judge_metadata: null, sub_tasks };
    invalidBelow.set(parent, counts);
    return parent;
  };
  const root = build(tree, ROOT_DEPTH);
  recomputeScoresInPlace(root);
  return root;
}
