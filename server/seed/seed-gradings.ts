import "server-only";
import { JUDGE_OUTPUT_KEYS, recomputeScoresInPlace } from "@/lib/grading/graded-tree";
import { serializeJudgeOutput } from "@/lib/grading/serialize";
import { AGGREGATED_EXPLANATION, type GradedNode } from "@/lib/grading/types";
import { rowsToTree } from "@/lib/rubric/tree-rows";
import type { RubricNode } from "@/lib/rubric/types";
import type { Executor } from "@/db/client";
import { createAgent } from "@/db/queries/agents";
import { setDemoMarks } from "@/db/queries/demo";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { listVerdictStates } from "@/db/queries/grading-verdicts";
import { importGradingInTransaction } from "@/server/gradings/import-grading";
import { overrideLeafScoreInTransaction } from "@/server/gradings/override-leaf-score";
import { mulberry32 } from "@/lib/random";

/**
 * Synthetic demo gradings for the embedded mode's first start, so the leaderboard and the review
 * page have something to show: a few agents, three runs each on every seeded paper, a judge
 * grading per run (PaperBench's binary leaf verdicts, drawn from a seeded PRNG: the same data on
 * every machine), one human grading and one override. Clearly fake: agents are named "Demo <scaffold> ·
 * <model>" (a real one is "<scaffold> · <model>"), marked `is_demo` and their notes say so.
 */
export const DEMO_AGENTS = [
  { name: "Demo BasicAgent · o1", model: "o1", scaffold: "BasicAgent", skill: 0.62 },
  { name: "Demo IterativeAgent · o3-mini", model: "o3-mini", scaffold: "IterativeAgent", skill: 0.48 },
  { name: "Demo BasicAgent · gpt-4o", model: "gpt-4o", scaffold: "BasicAgent", skill: 0.31 },
  {
    name: "Demo IterativeAgent · claude-3-5-sonnet",
    model: "claude-3-5-sonnet",
    scaffold: "IterativeAgent",
    skill: 0.55,
  },
] as const;
export const DEMO_RUNS = 3;
const JUDGE_MODEL = "o3-mini-2025-01-31";

/** Harder kinds of leaves pass less often: code is written more often than it runs, results least. */
const CATEGORY_EASE: Record<string, number> = {
  "Code Development": 1.25,
  "Code Execution": 0.85,
  "Result Analysis": 0.6,
};

interface SyntheticLeaf {
  score: number;
  explanation: string;
}

function syntheticVerdict(node: RubricNode, skill: number, rand: () => number): SyntheticLeaf {
  const p = Math.min(0.95, skill * (CATEGORY_EASE[node.task_category ?? ""] ?? 1));
  const pass = rand() < p;
  const what = node.requirements.length > 140 ? `${node.requirements.slice(0, 137)}...` : node.requirements;
  return {
    score: pass ? 1 : 0,
    explanation: pass
      ? `(synthetic demo verdict) The submission satisfies this requirement: ${what}`
      : `(synthetic demo verdict) No evidence in the submission that: ${what}`,
  };
}

/** A PaperBench judge output (`grader_output.json`) for one synthetic run, as PaperBench writes it. */
function judgeOutputText(
  tree: RubricNode,
  verdict: (leaf: RubricNode) => SyntheticLeaf,
  judgeType: string,
  gradedAt: string,
): string {
  let leaves = 0;
  const convert = (node: RubricNode): GradedNode => {
    const kids = node.sub_tasks.map(convert);
    const v = kids.length ? null : verdict(node);
    if (v) leaves++;
    return {
      id: node.id,
      requirements: node.requirements,
      weight: node.weight,
      score: v ? v.score : 0,
      valid_score: true,
      task_category: node.task_category,
      finegrained_task_category: node.finegrained_task_category,
      explanation: v ? v.explanation : AGGREGATED_EXPLANATION,
      judge_metadata: v ? { full_judge_response: v.explanation, synthetic: true } : null,
      sub_tasks: kids,
    };
  };
  const graded = convert(tree);
  recomputeScoresInPlace(graded);
  return serializeJudgeOutput(graded, {
    meta: {
      judge_type: judgeType,
      score: graded.score,
      num_leaf_nodes: leaves,
      num_invalid_leaf_nodes: 0,
      graded_at: gradedAt,
      completer_config: judgeType === "human" ? null : { model: JUDGE_MODEL, synthetic: true },
      token_usage: judgeType === "human" ? null : { [JUDGE_MODEL]: { in: 1200 * leaves, out: 180 * leaves } },
      keyOrder: [...JUDGE_OUTPUT_KEYS],
      extra: {},
    },
  });
}

/**
 * Seeds the demo agents and their graded runs on the given papers (their live rubrics). The
 * reviewer (the demo grader) leaves one override; the first agent's first run also gets a human
 * grading that disagrees with the judge on a few leaves, for JudgeEval.
 */
export async function seedDemoGradings(
  tx: Executor,
  input: { paperIds: readonly string[]; staffId: string; reviewerId: string },
): Promise<{ gradings: number }> {
  const agentIds: string[] = [];
  for (const a of DEMO_AGENTS) {
    const agent = await createAgent(tx, {
      name: a.name,
      model: a.model,
      scaffold: a.scaffold,
      notes: "Synthetic demo agent: its runs and scores are made up.",
    });
    agentIds.push(agent.id);
  }
  await setDemoMarks(tx, { userIds: [], paperIds: [], agentIds });
  let gradings = 0;
  let firstJudgeGrading: string | null = null;
  for (const [p, paperId] of input.paperIds.entries()) {
    const rubric = await getRubricByPaperId(tx, paperId);
    const tree = rubric ? rowsToTree(await getLiveNodeRows(tx, rubric.id)) : null;
    if (!tree) continue;
    for (const [ai, agent] of DEMO_AGENTS.entries()) {
      for (let run = 1; run <= DEMO_RUNS; run++) {
        const rand = mulberry32(0x5eed + 7919 * p + 104_729 * ai + run);
        // Runs of one agent differ a little: some go better than others.
        const skill = agent.skill + (rand() - 0.5) * 0.15;
        const verdicts = new Map<RubricNode, SyntheticLeaf>();
        const verdict = (leaf: RubricNode) => {
          const v = syntheticVerdict(leaf, skill, rand);
          verdicts.set(leaf, v);
          return v;
        };
        const day = String(1 + ((ai * DEMO_RUNS + run) % 28)).padStart(2, "0");
        const result = await importGradingInTransaction(tx, {
          paperId,
          agentName: agent.name,
          runIndex: run,
          variant: "full",
          human: false,
          fileText: judgeOutputText(tree, verdict, "simple", `2025-04-${day}T10-00-00-UTC`),
          fileName: "grader_output.json",
          userId: input.staffId,
        });
        gradings++;
        firstJudgeGrading ??= result.gradingId;
        if (ai === 0 && run === 1) {
          // A human expert graded the same run, and disagreed with the judge on every fifth leaf.
          let n = 0;
          const human = (leaf: RubricNode): SyntheticLeaf => {
            const judged = verdicts.get(leaf)!;
            const flip = n++ % 5 === 2;
            const score = flip ? 1 - judged.score : judged.score;
            return { score, explanation: `(synthetic demo) Expert review: ${score === 1 ? "met" : "not met"}.` };
          };
          await importGradingInTransaction(tx, {
            paperId,
            agentName: agent.name,
            runIndex: run,
            variant: "full",
            human: true,
            fileText: judgeOutputText(tree, human, "human", `2025-04-${day}T15-00-00-UTC`),
            fileName: "expected_result.json",
            userId: input.staffId,
          });
          gradings++;
        }
      }
    }
  }
  if (firstJudgeGrading) {
    // The demo grader overrode one verdict, so the review page shows a history.
    const leaf = (await listVerdictStates(tx, firstJudgeGrading)).find((v) => v.score === 0);
    if (leaf) {
      await overrideLeafScoreInTransaction(tx, {
        gradingId: firstJudgeGrading,
        nodeKey: leaf.nodeKey,
        userId: input.reviewerId,
        score: 1,
        reason: "(synthetic demo) The training script does this; the judge missed it.",
      });
    }
  }
  return { gradings };
}
