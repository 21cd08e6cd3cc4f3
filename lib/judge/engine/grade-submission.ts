/**
 * A judge run over one submission: every leaf (or pseudo-leaf at the max depth) of the judged
 * rubric not already done is graded, at most `maxConcurrency` calls' worth of leaves at once,
 * each verdict handed to `onVerdict` as it arrives; an abort starts nothing more.
 */
import pLimit from "p-limit";
import type { ChatModel, JudgeRubricNode, JudgeRunHooks, JudgeRunInput, LeafVerdict } from "../engine-contract";
import { buildGradedTree, type GradedTree } from "./graded-result";
import { gradeLeaf, RunAborted } from "./leaf-grader";
import { verdictHandoff } from "./verdict-handoff";
import { prepareSubmission } from "./prepare-submission";
import { placeholderEvidence } from "./placeholder-evidence";
import { judgedTree, planLeaves, type PlannedLeaf } from "./rubric-plan";
import { mulberry32 } from "@/lib/random";
import { runPaperbenchJudge, type PbGradedNode } from "../paperbench/simple-judge";

export { estimateRun } from "./estimate";
export type { GradedTree };

export interface JudgeRunResult {
  /** This run's verdicts in rubric order (leaves in `hooks.done` are not among them). */
  verdicts: LeafVerdict[];
  /** The graded tree of this run's verdicts (leaves not graded by it stay ungraded). */
  tree: GradedTree;
  /** Paperbench mode: the tree exactly as SimpleJudge returns it (`GradedTaskNode.to_dict()`). */
  paperbenchTree?: PbGradedNode;
}

function judgedTreeOrFail(input: JudgeRunInput): JudgeRubricNode {
  return judgedTree(input.rubric, input.codeDev);
}

/** Why a paperbench-mode run cannot start: its input lacks PaperBench's prompts. */
export const PAPERBENCH_PROMPTS_MISSING =
  "Paperbench mode needs PaperBench's prompts (read from its constants.py at run start); none were given";

async function runLeaves(
  leaves: PlannedLeaf[],
  concurrency: number,
  hooks: JudgeRunHooks,
  grade: (leaf: PlannedLeaf) => Promise<LeafVerdict>,
): Promise<LeafVerdict[]> {
  const limit = pLimit(Math.max(1, concurrency));
  const got = new Map<string, LeafVerdict>();
  const handoff = verdictHandoff(hooks);
  // After an abort the queued leaves still run, each returning at once (a cleared p-limit queue
  // would leave their promises unsettled).
  await Promise.all(
    leaves
      .filter((leaf) => !hooks.done?.has(leaf.key))
      .map((leaf) =>
        limit(async () => {
          if (hooks.signal?.aborted || handoff.failed) return;
          let verdict: LeafVerdict;
          try {
            verdict = await grade(leaf);
          } catch (err) {
            if (err instanceof RunAborted) return;
            throw err;
          }
          got.set(leaf.key, verdict);
          handoff.hand(verdict);
        }),
      ),
  );
  await handoff.settle();
  return leaves.map((l) => got.get(l.key)).filter((v): v is LeafVerdict => !!v);
}

export async function gradeSubmission(
  input: JudgeRunInput,
  model: ChatModel,
  hooks: JudgeRunHooks = {},
): Promise<JudgeRunResult> {
  const tree = judgedTreeOrFail(input);
  if (input.mode === "paperbench") {
    if (!input.paperbench) throw new Error(PAPERBENCH_PROMPTS_MISSING);
    const run = await runPaperbenchJudge(input, model, hooks, {
      prompts: input.paperbench.prompts,
      now: input.paperbench.now ?? Date.now(),
    });
    return {
      verdicts: run.verdicts,
      tree: buildGradedTree(tree, input.maxDepth, new Map(run.verdicts.map((v) => [v.key, v]))),
      paperbenchTree: run.tree,
    };
  }
  const leaves = planLeaves(tree, input.maxDepth);
  const prepared = await prepareSubmission(input, leaves);
  await hooks.ready?.();
  const verdicts = await runLeaves(leaves, input.maxConcurrency, hooks, (leaf) =>
    gradeLeaf({ input, model, prepared, signal: hooks.signal }, leaf),
  );
  return { verdicts, tree: buildGradedTree(tree, input.maxDepth, new Map(verdicts.map((v) => [v.key, v]))) };
}

/**
 * PaperBench's dummy (every leaf 1) and random (each leaf 0 or 1, evenly) judges: no model, the
 * same result shape and hooks, for demos and tests without an API key. Each verdict cites the first
 * lines of the first file a model would have been shown, so a demo grading has evidence to follow.
 */
export async function gradeWithoutModel(
  input: JudgeRunInput,
  kind: "dummy" | "random",
  seed: number = Date.now(),
  hooks: JudgeRunHooks = {},
): Promise<JudgeRunResult> {
  const tree = judgedTreeOrFail(input);
  const leaves = planLeaves(tree, input.maxDepth);
  const random = mulberry32(seed);
  const evidence = await placeholderEvidence(input.submission, input.codeDev, leaves);
  await hooks.ready?.();
  const verdicts = await runLeaves(leaves, input.maxConcurrency, hooks, async (leaf) => {
    const score = kind === "dummy" ? 1 : random() < 0.5 ? 0 : 1;
    const cited = evidence.get(leaf.key) ?? [];
    const explanation =
      (kind === "dummy"
        ? "The dummy judge scores every criterion 1, whatever the submission holds."
        : `The random judge drew ${score}.`) +
      (cited.length > 0
        ? ` Its evidence is a placeholder: the first lines of ${cited[0].path}, the first file a model judge would be shown.`
        : "");
    return { key: leaf.key, score, valid: true, explanation, evidence: cited, calls: [], subtree: leaf.subtree };
  });
  return { verdicts, tree: buildGradedTree(tree, input.maxDepth, new Map(verdicts.map((v) => [v.key, v]))) };
}
