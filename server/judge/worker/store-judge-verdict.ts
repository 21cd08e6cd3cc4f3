import "server-only";
import type { Executor, Store } from "@/db/client";
import { setGradingScore } from "@/db/queries/gradings";
import { insertVerdicts } from "@/db/queries/grading-verdicts";
import { getJobUnderLease } from "@/db/queries/jobs";
import { lockJudgeRunById, setJudgeRunTotals } from "@/db/queries/judge-runs";
import type { Grading } from "@/db/schema";
import type { JsonValue } from "@/lib/grading/types";
import type { JudgeConfigInput } from "@/lib/judge/config";
import type { LeafVerdict } from "@/lib/judge/engine-contract";
import { mergeUsage, usageByModel, totalUsage, type ModelUsage } from "@/lib/judge/engine/usage";
import type { GradedUnit } from "@/lib/judge/rubric-rows";
import { judgeCostUsd } from "@/lib/judge/cost";
import { getPinnedGradingScores } from "@/server/gradings/pinned-grading";
import { LeaseLost } from "@/server/jobs/job-lifecycle";

/** The worker lost its job's lease (expired, or the job moved on): it stops and writes nothing more. */
export class LostLease extends LeaseLost {
  constructor() {
    super("The judge job's lease is no longer current");
    this.name = "LostLease";
  }
}

/** A verdict's `judge_metadata`: who judged, its evidence, and every call it took with its tokens and cost. */
export function verdictMetadata(verdict: LeafVerdict, config: JudgeConfigInput): JsonValue {
  const usage = totalUsage(usageByModel(verdict.calls));
  return {
    judge: config.kind,
    model: config.model,
    subtree: verdict.subtree,
    ...(verdict.subtree ? { graded_node_key: verdict.key } : {}),
    evidence: verdict.evidence.map((e) => ({ path: e.path, start_line: e.start_line, end_line: e.end_line })),
    // Paperbench mode keeps the grading call's free-form answer, as PaperBench's judge_metadata does.
    ...(verdict.fullJudgeResponse !== undefined ? { full_judge_response: verdict.fullJudgeResponse } : {}),
    calls: verdict.calls.map((c) => ({ ...c })),
    token_usage: { ...usage },
    cost_usd: judgeCostUsd(config, {
      inputTokens: usage.in,
      cachedInputTokens: usage.cached_in,
      outputTokens: usage.out,
    }),
  } as unknown as JsonValue;
}

/** A verdict and the unit (a leaf, or a pseudo-leaf with the leaves below it) it is for. */
export interface UnitVerdict {
  unit: GradedUnit;
  verdict: LeafVerdict;
}

/**
 * Stores verdicts as they arrive (those that arrived together: the worker group-commits them), in
 * one transaction fenced by the job's lease: each on every leaf of its unit, the run's totals
 * (leaves, calls, tokens per model, cost) and, when `recomputeScore` says so, the grading's root
 * score recomputed the way every reader does. The recompute reads the whole pinned tree, so doing
 * it on every verdict made a run quadratic in its leaves; the caller asks for it at most once a
 * second and once at the end (`storeJudgeRunScore`).
 */
export async function storeJudgeVerdicts(
  store: Store,
  input: {
    runId: string;
    grading: Grading;
    jobId: string;
    leaseId: string;
    nodeIds: Map<string, string>;
    verdicts: UnitVerdict[];
    config: JudgeConfigInput;
    recomputeScore: boolean;
  },
): Promise<void> {
  const { config } = input;
  await store.db.transaction(async (tx) => {
    if (!(await getJobUnderLease(tx, input.jobId, input.leaseId))) throw new LostLease();
    const run = await lockJudgeRunById(tx, input.runId);
    if (!run) throw new LostLease();
    await insertVerdicts(
      tx,
      input.grading.id,
      input.verdicts.flatMap(({ unit, verdict }) => {
        const judgeMetadata = verdictMetadata(verdict, config);
        return unit.leafKeys.map((key) => ({
          nodeKey: key,
          nodeId: input.nodeIds.get(key) ?? "",
          score: verdict.score,
          valid: verdict.valid,
          explanation: verdict.explanation,
          judgeMetadata,
          source: "judge" as const,
        }));
      }),
    );
    const added = usageByModel(input.verdicts.flatMap(({ verdict }) => verdict.calls));
    const tokenUsage = mergeUsage(run.tokenUsage as Record<string, ModelUsage>, added);
    const sum = totalUsage(added);
    await setJudgeRunTotals(tx, run.id, {
      leavesDone: run.leavesDone + input.verdicts.length,
      leavesInvalid: run.leavesInvalid + input.verdicts.filter(({ verdict }) => !verdict.valid).length,
      calls: run.calls + sum.calls,
      inputTokens: run.inputTokens + sum.in,
      cachedInputTokens: run.cachedInputTokens + sum.cached_in,
      outputTokens: run.outputTokens + sum.out,
      reasoningTokens: run.reasoningTokens + sum.reasoning_out,
      // Added verdict by verdict, in order: the same sum as when each verdict was stored alone.
      costUsd: input.verdicts.reduce((cost, { verdict }) => {
        const u = totalUsage(usageByModel(verdict.calls));
        return cost + judgeCostUsd(config, { inputTokens: u.in, cachedInputTokens: u.cached_in, outputTokens: u.out });
      }, run.costUsd),
      tokenUsage,
    });
    if (input.recomputeScore) await recomputeGradingScore(tx, input.grading);
  });
}

async function recomputeGradingScore(tx: Executor, grading: Grading): Promise<void> {
  const scores = await getPinnedGradingScores(tx, grading);
  await setGradingScore(tx, grading.id, scores.rootScore);
}

/** The grading's root score from every verdict stored, under the job's lease: a run's last word. */
export async function storeJudgeRunScore(
  store: Store,
  input: { grading: Grading; jobId: string; leaseId: string },
): Promise<void> {
  await store.db.transaction(async (tx) => {
    if (!(await getJobUnderLease(tx, input.jobId, input.leaseId))) throw new LostLease();
    await recomputeGradingScore(tx, input.grading);
  });
}
