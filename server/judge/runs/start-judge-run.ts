import "server-only";
import { randomUUID } from "node:crypto";
import type { Store } from "@/db/client";
import { insertGrading } from "@/db/queries/gradings";
import { insertJob } from "@/db/queries/jobs";
import { insertJudgeRun } from "@/db/queries/judge-runs";
import { getLiveNodeRows, getRubricByPaperId, lockRubricById } from "@/db/queries/rubrics";
import type { GradingSource } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { JudgeRunRequest } from "@/lib/judge/schemas";
import type { JudgeRunView } from "@/lib/judge/views";
import { buildPinnedGradedTree } from "@/lib/grading/pinned-tree";
import { pinLiveVersion, rubricFingerprint } from "@/server/gradings/import-grading";
import { publishJobQueued } from "@/server/jobs/job-events";
import { judgeJobKind } from "@/server/judge/worker/judge-job-kind";
import { getEvaluationById } from "@/db/queries/evaluations";
import type { Evaluation } from "@/db/schema";
import { isPlaceholderJudge, type GradingProvenance } from "@/lib/evaluations/provenance";
import { assertJudgeKeyReady } from "../configs/judge-config-view";
import { judgePromptSource } from "../prompt-source";
import {
  estimatePlannedRun,
  planJudgeRuns,
  rubricRowsFor,
  unitCount,
  type JudgePlan,
  type PlannedRun,
} from "./plan-judge-runs";
import { readJudgeRun } from "./read-judge-run";

/** A judge run may take this long (a large paper at a low rate limit) before its job times out. */
export const JUDGE_TIMEOUT_S = 24 * 60 * 60;
/** A run interrupted by a dead worker resumes this many times (with only its missing leaves). */
export const JUDGE_MAX_ATTEMPTS = 5;

/**
 * Starts a judge run on each submission a request names (staff): per submission, in one
 * transaction, a grading (kind judge, source `judge_run`) against the pinned rubric version
 * (the live rubric pinned now, or the chosen version) with no verdicts yet, a `judge` job on the
 * queue (no GPUs) and the run's row with the configuration as it is now and the estimate.
 * `lab`: the judge lab's runs, whose gradings are never counted (`gradings.is_lab`).
 * `announce: false` inside a caller's transaction (the evaluation pipeline): it announces the jobs
 * (`publishJobQueued`) after it commits.
 */
export async function startJudgeRuns(
  store: Store,
  request: JudgeRunRequest,
  userId: string | null,
  opts: { lab?: boolean; announce?: boolean } = {},
): Promise<JudgeRunView[]> {
  const plan = await planJudgeRuns(store, request);
  assertJudgeKeyReady(plan.config, "configId");
  const views: JudgeRunView[] = [];
  for (const run of plan.runs) {
    const runId = await startOne(store, plan, run, userId, opts.lab ?? false, opts.announce ?? true);
    views.push((await readJudgeRun(store, runId))!);
  }
  return views;
}

async function startOne(
  store: Store,
  plan: JudgePlan,
  run: PlannedRun,
  userId: string | null,
  isLab: boolean,
  announce: boolean,
): Promise<string> {
  const estimate = await estimatePlannedRun(store, plan, run);
  // Read before the transaction: paperbench mode's commit comes from PaperBench's source (python3, cached).
  const promptSource = plan.fields.kind === "llm" ? await judgePromptSource(plan.fields.mode) : null;
  const runId = randomUUID();
  const jobId = await store.db.transaction(async (tx) => {
    let versionId: string;
    if (plan.rubricVersionId) {
      versionId = plan.rubricVersionId;
    } else {
      const found = await getRubricByPaperId(tx, run.paper.id);
      if (!found) throw new AppError("conflict", `The paper "${run.paper.id}" has no rubric yet`);
      // Share lock: the revision and the rows pinned belong together.
      const rubric = await lockRubricById(tx, found.id, "share");
      ({ versionId } = await pinLiveVersion(tx, rubric, await getLiveNodeRows(tx, rubric.id), userId));
    }
    const { viewed } = await rubricRowsFor(tx, run.paper.id, plan.variant, versionId);
    const source: GradingSource = { format: "judge_run", fileName: null, sha256: null, bytes: null };
    // The evaluation the submission is in: its failure policies now are part of how the score is made.
    const evaluation = run.submission.evaluationId ? await getEvaluationById(tx, run.submission.evaluationId) : null;
    const provenance = judgeRunProvenance(plan, evaluation, promptSource);
    const gradingId = await insertGrading(tx, {
      submissionId: run.submission.id,
      rubricVersionId: versionId,
      rubricView: plan.variant,
      rubricFingerprint: rubricFingerprint(buildPinnedGradedTree(viewed, []).tree),
      kind: "judge",
      judgeType: plan.config.kind === "llm" ? "simple" : plan.config.kind,
      judgeModel: plan.config.model,
      score: 0,
      source,
      isLab,
      createdBy: userId,
      provenance,
      judgePlaceholder: isPlaceholderJudge(plan.config.kind),
    });
    const job = await insertJob(tx, {
      kind: "judge",
      paperId: run.paper.id,
      submissionId: run.submission.id,
      payload: judgeJobKind.payloadFor({ judgeRunId: runId }),
      gpusRequired: 0,
      timeoutS: JUDGE_TIMEOUT_S,
      maxAttempts: JUDGE_MAX_ATTEMPTS,
      createdBy: userId,
    });
    await insertJudgeRun(tx, {
      id: runId,
      gradingId,
      submissionId: run.submission.id,
      jobId: job.id,
      configId: plan.config.id,
      config: plan.fields,
      variant: plan.variant,
      maxDepth: plan.maxDepth,
      leavesTotal: unitCount(viewed, plan.variant, plan.maxDepth),
      estimate,
      createdBy: userId,
    });
    return job.id;
  });
  if (announce) await publishJobQueued(store, { id: jobId, kind: "judge", status: "queued" });
  return runId;
}

/** How the run's grading is made (`gradings.provenance`): the configuration frozen as it is now, the prompts' source, the evaluation's policies. */
export function judgeRunProvenance(
  plan: Pick<JudgePlan, "config" | "fields" | "maxDepth">,
  evaluation: Pick<Evaluation, "id" | "policies"> | null,
  promptSource: string | null,
): GradingProvenance {
  const f = plan.fields;
  return {
    origin: "judge_run",
    judgeKind: f.kind,
    judgeModel: f.model,
    mode: f.mode,
    config: {
      id: plan.config.id,
      name: f.name,
      model: f.model,
      mode: f.mode,
      reasoningEffort: f.reasoningEffort,
      contextWindow: f.contextWindow,
      parseModel: f.parseModel,
      maxDepth: plan.maxDepth,
    },
    promptSource,
    evaluationId: evaluation?.id ?? null,
    policies: evaluation?.policies ?? null,
  };
}
