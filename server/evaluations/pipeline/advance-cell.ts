import "server-only";
import type { Database, Store } from "@/db/client";
import { insertEvaluationCell, lockEvaluationCell, updateEvaluationCell } from "@/db/queries/evaluation-cells";
import { getEvaluationById } from "@/db/queries/evaluations";
import { getJobById } from "@/db/queries/jobs";
import { getJudgeRunWithJob } from "@/db/queries/judge-runs";
import { getSubmissionById } from "@/db/queries/submissions";
import type { EvaluationCellRecord } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isJudgeableReproduction } from "@/lib/jobs/judge-source";
import { nextPipelineStep, type CellFailure, type PipelineStep } from "@/lib/evaluations/pipeline";
import { publishJobQueued } from "@/server/jobs/job-events";
import { enqueueReproduceJob } from "@/server/submissions/enqueue-reproduce";
import { defaultJudgeConfigId } from "@/server/judge/configs/default-judge-config";
import { startJudgeRuns } from "@/server/judge/runs/start-judge-run";
import { announceEvaluationChanged } from "./evaluation-feed";
import { onCellGraded } from "./on-cell-graded";

export interface AdvanceResult {
  evaluationId: string;
  step: PipelineStep["kind"];
}

/**
 * Takes a pipeline cell its next step, by the rule of `nextPipelineStep` (uploaded → reproducing,
 * a finished job → judging, a failure → a retry or failed, a finished judge run → graded → done).
 * The step is one transaction holding the cell's row lock, and what it starts (a reproduce job, a
 * judge run) is written in it: two callers at once (an event and the sweep, two instances) take a
 * step once, and a crash leaves the cell as it was before it. Every step ends in a wait (for the
 * job or run it started) or a final stage, so one step per event is enough. Safe to call any
 * number of times; null when the submission is not in the pipeline. The queue and the
 * evaluation are announced after the commit.
 */
export async function advanceCell(
  store: Store,
  submissionId: string,
  userId: string | null = null,
): Promise<AdvanceResult | null> {
  // The step writes through the transaction; the services it calls take a Store, so they get one over it.
  const taken = await store.db.transaction((tx) => stepCell(store, tx as unknown as Database, submissionId, userId));
  if (!taken) return null;
  for (const job of taken.queued) await publishJobQueued(store, { ...job, status: "queued" });
  if (taken.graded) {
    await onCellGraded(store, { submissionId, evaluationId: taken.evaluationId, failure: taken.graded.failure });
    await finishGraded(store, submissionId);
  }
  if (taken.step !== "wait") await announceEvaluationChanged(store, taken.evaluationId);
  return { evaluationId: taken.evaluationId, step: taken.step };
}

interface Taken {
  evaluationId: string;
  step: PipelineStep["kind"];
  queued: { kind: "reproduce" | "judge"; id: string }[];
  graded: { failure: CellFailure | null } | null;
}

async function stepCell(
  store: Store,
  tx: Database,
  submissionId: string,
  userId: string | null,
): Promise<Taken | null> {
  const cell = await lockEvaluationCell(tx, submissionId);
  if (!cell) return null;
  const evaluation = await getEvaluationById(tx, cell.evaluationId);
  if (!evaluation) return null;
  const job = cell.jobId ? await getJobById(tx, cell.jobId) : null;
  const run = cell.judgeRunId ? await getJudgeRunWithJob(tx, cell.judgeRunId) : null;
  const step = nextPipelineStep({
    variant: evaluation.variant,
    stage: cell.stage,
    attempts: cell.attempts,
    policies: evaluation.policies,
    job: job
      ? {
          status: job.status,
          exitCode: job.exitCode,
          reason: job.failureReason,
          judgeable: isJudgeableReproduction(job),
        }
      : null,
    judgeRun: run
      ? {
          status: run.job?.status ?? "failed",
          reason: run.job?.failureReason ?? (run.job ? null : "its job is gone"),
          leavesInvalid: run.run.leavesInvalid,
        }
      : null,
    failure: failureOf(cell),
  });
  const taken: Taken = { evaluationId: cell.evaluationId, step: step.kind, queued: [], graded: null };
  const txStore: Store = { ...store, db: tx };
  switch (step.kind) {
    case "wait":
      return taken;
    case "reproduce":
    case "judge":
      await startStep(txStore, cell, step.kind, evaluation.judgeConfigId, userId, taken);
      return taken;
    case "retry":
      await updateEvaluationCell(tx, submissionId, {
        attempts: cell.attempts + 1,
        failureKind: step.failure.kind,
        failureReason: step.failure.reason,
      });
      await startStep(
        txStore,
        { ...cell, attempts: cell.attempts + 1 },
        step.from,
        evaluation.judgeConfigId,
        userId,
        taken,
      );
      return taken;
    case "graded":
      await updateEvaluationCell(tx, submissionId, {
        stage: "graded",
        failureKind: step.failure?.kind ?? null,
        failureReason: step.failure?.reason ?? null,
      });
      taken.graded = { failure: step.failure };
      return taken;
    case "failed":
      await updateEvaluationCell(tx, submissionId, {
        stage: "failed",
        failureKind: step.failure.kind,
        failureReason: step.failure.reason,
        finishedAt: new Date(),
      });
      return taken;
  }
}

/** Queues the reproduction, or starts the judge run, of the cell's current attempt (inside the step's transaction). */
async function startStep(
  txStore: Store,
  cell: EvaluationCellRecord,
  what: "reproduce" | "judge",
  judgeConfigId: string | null,
  userId: string | null,
  taken: Taken,
): Promise<void> {
  const submission = await getSubmissionById(txStore.db, cell.submissionId);
  if (!submission) throw new AppError("not_found", "The cell's submission is gone");
  if (what === "reproduce") {
    const { jobId } = await enqueueReproduceJob(txStore, {
      submissionId: submission.id,
      paperId: submission.paperId,
      userId,
      announce: false,
    });
    await updateEvaluationCell(txStore.db, cell.submissionId, { stage: "reproducing", jobId, judgeRunId: null });
    taken.queued.push({ kind: "reproduce", id: jobId });
    return;
  }
  // The evaluation's configuration, else the one a new evaluation would get now (the dialog's rule):
  // an evaluation made before any configuration existed still grades.
  const configId = judgeConfigId ?? (await defaultJudgeConfigId(txStore.db));
  if (!configId) {
    const failure = {
      kind: "judge_invalid_leaves" as const,
      reason: "no judge configuration: the evaluation names none and the studio has none (add one on /judge)",
    };
    await updateEvaluationCell(txStore.db, cell.submissionId, {
      stage: "failed",
      failureKind: failure.kind,
      failureReason: failure.reason,
      finishedAt: new Date(),
    });
    taken.step = "failed";
    return;
  }
  try {
    const [run] = await startJudgeRuns(
      txStore,
      { submissionIds: [submission.id], configId, variant: submission.variant },
      userId,
      { announce: false },
    );
    await updateEvaluationCell(txStore.db, cell.submissionId, { stage: "judging", judgeRunId: run.id });
    if (run.jobId) taken.queued.push({ kind: "judge", id: run.jobId });
  } catch (err) {
    // A run that cannot start (a missing API key, an archived configuration, no rubric) ends the
    // cell with the reason shown; Retry starts it again once that is fixed.
    if (!(err instanceof AppError)) throw err;
    await updateEvaluationCell(txStore.db, cell.submissionId, {
      stage: "failed",
      failureKind: "judge_invalid_leaves",
      failureReason: `the judge run could not start: ${err.message}`,
      finishedAt: new Date(),
    });
    taken.step = "failed";
  }
}

/** After the after-grading step: the cell is done (counted or excluded by its policy). */
async function finishGraded(store: Store, submissionId: string): Promise<void> {
  await store.db.transaction(async (tx) => {
    const cell = await lockEvaluationCell(tx, submissionId);
    if (cell?.stage === "graded")
      await updateEvaluationCell(tx, submissionId, { stage: "done", finishedAt: new Date() });
  });
}

function failureOf(cell: EvaluationCellRecord): CellFailure | null {
  return cell.failureKind && cell.failureReason ? { kind: cell.failureKind, reason: cell.failureReason } : null;
}

/**
 * Puts a submission of an evaluation into the pipeline and starts it: a reproduction for the full
 * variant, a judge run for Code-Dev. The harness's upload and the bulk upload call it after their
 * transaction commits; a second call changes nothing. `restart` (a replaced archive) begins again
 * at attempt 1.
 */
export async function startEvaluationCell(
  store: Store,
  input: { submissionId: string; evaluationId: string; restart?: boolean; userId?: string | null },
): Promise<AdvanceResult | null> {
  await store.db.transaction(async (tx) => {
    await insertEvaluationCell(tx, { submissionId: input.submissionId, evaluationId: input.evaluationId });
    if (input.restart) {
      await lockEvaluationCell(tx, input.submissionId);
      await updateEvaluationCell(tx, input.submissionId, {
        stage: "uploaded",
        attempts: 1,
        jobId: null,
        judgeRunId: null,
        failureKind: null,
        failureReason: null,
        startedAt: new Date(),
        finishedAt: null,
      });
    }
  });
  return advanceCell(store, input.submissionId, input.userId ?? null);
}
