import "server-only";
import type { Executor, Store } from "@/db/client";
import { ensureAgentByName } from "@/db/queries/agents";
import { insertEvaluation } from "@/db/queries/evaluations";
import { getJudgeConfigById } from "@/db/queries/judge-configs";
import type { Evaluation } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { createEvaluationSchema, type CreateEvaluationInput } from "@/lib/evaluations/schemas";
import { badRequestOf } from "@/server/http/zod-details";
import { defaultJudgeConfigId } from "@/server/judge/configs/default-judge-config";
import { readDataSplits } from "@/server/papers/data-splits";

/**
 * Creates an evaluation (the agent by name, created when new): a named split takes its papers
 * from PaperBench's `splits/`, `custom` takes the ones given; its judge configuration is the one
 * named, else the one the evaluation dialog preselects (`chooseDefaultJudge`: a ready model judge
 * in paperbench mode, else a model judge, else a placeholder, whose scores are never public;
 * none configured: the default when its first judging starts). Bad fields are a 400 naming them.
 */
export async function createEvaluation(
  store: Store,
  input: CreateEvaluationInput,
  userId: string | null,
): Promise<Evaluation> {
  return store.db.transaction((tx) => createEvaluationInTransaction(tx, input, userId));
}

export async function createEvaluationInTransaction(
  tx: Executor,
  input: CreateEvaluationInput,
  userId: string | null,
): Promise<Evaluation> {
  const parsed = createEvaluationSchema.safeParse(input);
  if (!parsed.success) throw badRequestOf(parsed.error);
  const fields = parsed.data;
  let paperIds = fields.paperIds;
  if (fields.split !== "custom") {
    const splits = readDataSplits();
    const papers = splits[fields.split];
    if (!papers) {
      const known = Object.keys(splits).join(", ") || "none";
      throw new AppError("bad_request", `split: no split named "${fields.split}" (known: ${known}, or custom)`, [
        { path: "split", message: "unknown split" },
      ]);
    }
    paperIds = papers;
  }
  let judgeConfigId = fields.judgeConfigId;
  if (judgeConfigId) {
    const config = await getJudgeConfigById(tx, judgeConfigId);
    if (!config || config.archivedAt)
      throw new AppError(
        "bad_request",
        `judgeConfigId: no judge configuration with id "${judgeConfigId}" (or it is archived)`,
        [{ path: "judgeConfigId", message: "no such configuration" }],
      );
  } else {
    // The dialog's rule, so a request that names no judge gets what the dialog would have chosen.
    judgeConfigId = await defaultJudgeConfigId(tx);
  }
  const { agent } = await ensureAgentByName(tx, { name: fields.agent });
  return insertEvaluation(tx, {
    name: fields.name,
    agentId: agent.id,
    split: fields.split,
    paperIds: [...new Set(paperIds)],
    runs: fields.runs,
    variant: fields.variant,
    policies: fields.policies,
    aggregation: fields.aggregation,
    resourcesProvided: fields.resourcesProvided,
    setup: fields.setup,
    isHuman: fields.isHuman,
    reviewSampleSize: fields.reviewSampleSize,
    judgeConfigId,
    createdBy: userId,
  });
}
