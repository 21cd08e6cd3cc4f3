import "server-only";
import { setMaxListeners } from "node:events";
import type { Store } from "@/db/client";
import { getGradingById } from "@/db/queries/gradings";
import { listVerdictKeys } from "@/db/queries/grading-verdicts";
import { getJudgeRunById, markJudgeRunStarted } from "@/db/queries/judge-runs";
import { getPaperById } from "@/db/queries/papers";
import type { Job, JudgeRun } from "@/db/schema";
import type { JudgeConfigInput } from "@/lib/judge/config";
import { doneUnitKeys, gradedUnits, toJudgeRubric } from "@/lib/judge/rubric-rows";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import type { JobHandler, JobRunContext } from "@/server/jobs/job-kinds";
import { reportJobProgress } from "@/server/jobs/job-lifecycle";
import { setGradingJudgeFinished } from "@/db/queries/gradings";
import { listJudgeRunUsagesByGradingId, markJudgeRunFinished } from "@/db/queries/judge-runs";
import { mergeUsage, type ModelUsage } from "@/lib/judge/engine/usage";
import { judgeJobKind, judgeJobTexts } from "./judge-job-kind";
import { gradeWithConfig, judgeRunInput } from "../judge-engine";
import { loadJudgeSubmissionOf } from "../judge-submission-files";
import { paperbenchInputFor } from "../paperbench-mode";
import { groupCommit } from "@/lib/group-commit";
import { LostLease, storeJudgeRunScore, storeJudgeVerdicts, type UnitVerdict } from "./store-judge-verdict";

/**
 * About how long preparing a run takes (its rubric, submission and prompts; a few hundred ms on a
 * loaded 2-core machine): a run this near its last wave lets its worker claim the next one.
 */
const PREPARE_AHEAD_MS = 1_500;

/** How often a run in progress recomputes its grading's root score (readers see progress, not every verdict). */
const SCORE_EVERY_MS = 1_000;

/**
 * How long a verdict waits for others to share its write, in a run that makes at least
 * `LINGER_FROM_CONCURRENCY` calls at once. Verdicts come back one by one as calls end, and a quick
 * write took only the few that arrived during the one before: about 5 verdicts a transaction at a
 * run's concurrency of 25, each transaction 7 statements and an announcement on the job's feed;
 * waiting a tenth of a second took the database's CPU in the evaluation bench from 13 to 7-11 s.
 * A verdict still waiting when its worker dies is asked again by the next attempt (only leaves
 * without a stored verdict are), so the wait is kept to a run whose verdicts come often enough to
 * share writes: with a few calls at once, verdicts come a model's answer apart and would only wait.
 */
const VERDICT_LINGER_MS = 100;
const LINGER_FROM_CONCURRENCY = 8;

/** The run a `judge` job carries (`payload.judgeRunId`), or null when it is gone. */
export async function judgeRunOfJob(store: Store, job: Job): Promise<JudgeRun | null> {
  return getJudgeRunById(store.db, judgeJobKind.payloadOf(job).judgeRunId);
}

/** The judge kind's work in the job worker (`startJudgeWorker`). */
export const judgeJobHandler: JobHandler<{ judgeRunId: string }> = {
  run: ({ store, job, leaseId, controller, env, lastWave, nearEnd, mayStart }) =>
    runJudgeJob(store, job, leaseId, controller, env, { lastWave, nearEnd, mayStart }),
  ...judgeJobTexts,
  // The job, its run and its grading end in one transaction: no reader sees a succeeded run whose
  // grading is not finished yet.
  async onEnd(tx, job) {
    const run = await judgeRunOfJob(tx, job);
    if (!run) return;
    await markJudgeRunFinished(tx.db, run.id);
    // The grading's tokens are every run's on it (a re-grade of the leaves a rubric change touched is a run of its own).
    if (job.status === "succeeded") {
      const usages = (await listJudgeRunUsagesByGradingId(tx.db, run.gradingId)) as Record<string, ModelUsage>[];
      await setGradingJudgeFinished(tx.db, run.gradingId, usages.reduce(mergeUsage, {}));
    }
  },
};

/**
 * Grades what a run has left: the units (leaves, pseudo-leaves) without a stored verdict are
 * handed to the engine, each verdict stored as it arrives. Returns when every unit asked is done
 * or the signal stopped it (then some are left for a later attempt).
 */
export async function runJudgeJob(
  store: Store,
  job: Job,
  leaseId: string,
  controller: AbortController,
  env: Record<string, string | undefined>,
  worker: Partial<Pick<JobRunContext<unknown>, "lastWave" | "nearEnd" | "mayStart">> = {},
): Promise<{ run: JudgeRun; unitsLeft: number }> {
  // Every call in flight links its own signal to the run's (withCallSignal): as many listeners as
  // the run's concurrency, removed as calls end. Not the leak Node's warning past 10 suspects.
  setMaxListeners(Infinity, controller.signal);
  const run = await judgeRunOfJob(store, job);
  if (!run) throw new Error("The judge run of this job is gone");
  const grading = await getGradingById(store.db, run.gradingId);
  if (!grading) throw new Error("The judge run's grading is gone");
  const paper = await getPaperById(store.db, job.paperId);
  if (!paper) throw new Error("The judge run's paper is gone");
  const config = run.config as JudgeConfigInput;
  const rows = await getGradingRows(store.db, grading);
  const rubric = toJudgeRubric(rows);
  const units = gradedUnits(rubric, run.variant === "code-dev", run.maxDepth);
  const unitOf = new Map(units.map((u) => [u.key, u]));
  const nodeIds = new Map(rows.map((r) => [r.key, r.nodeId]));
  const done = doneUnitKeys(units, new Set(await listVerdictKeys(store.db, grading.id)));
  await markJudgeRunStarted(store.db, run.id);
  let stored = 0;
  let callsStartedAt = 0;
  const wave = Math.max(1, config.maxConcurrency);
  const noteProgress = () => {
    const left = units.length - done.size - stored;
    // Once no more than a wave of calls is left, they are all in flight: the worker may start its next run.
    if (left <= wave) worker.lastWave?.();
    // Once the last wave is about PREPARE_AHEAD_MS away at this run's pace, the worker may claim
    // its next run, which prepares meanwhile and starts calling when this one's last wave goes out.
    else if (stored > 0 && ((left - wave) * (Date.now() - callsStartedAt)) / stored <= PREPARE_AHEAD_MS)
      worker.nearEnd?.();
  };
  noteProgress();
  // The root score is recomputed at most this often while verdicts arrive, and once at the end.
  let scoredAt = 0;
  if (done.size < units.length) {
    const submission = await loadJudgeSubmissionOf(store, run.submissionId, run.variant);
    // Paperbench mode reads PaperBench's prompts at run start (a missing checkout fails the job, naming the path).
    const paperbench = await paperbenchInputFor(config);
    const input = judgeRunInput({
      rubric,
      paper,
      submission,
      variant: run.variant,
      maxDepth: run.maxDepth,
      config,
      submissionId: run.submissionId,
      paperbench,
    });
    // Verdicts arriving while others are being stored, or within VERDICT_LINGER_MS of the first, are
    // stored together (one transaction, one announcement): one write per verdict was the worker's cost.
    const verdicts = groupCommit<UnitVerdict>(
      async (items) => {
        const recomputeScore = Date.now() - scoredAt >= SCORE_EVERY_MS;
        if (recomputeScore) scoredAt = Date.now();
        try {
          await storeJudgeVerdicts(store, {
            runId: run.id,
            grading,
            jobId: job.id,
            leaseId,
            nodeIds,
            verdicts: items,
            config,
            recomputeScore,
          });
        } catch (err) {
          // Nothing more is stored under this lease: start no other call.
          if (err instanceof LostLease) controller.abort(err);
          throw err;
        }
        await reportJobProgress(store, job);
      },
      { lingerMs: config.maxConcurrency >= LINGER_FROM_CONCURRENCY ? VERDICT_LINGER_MS : 0 },
    );
    try {
      await gradeWithConfig(
        input,
        config,
        {
          done,
          signal: controller.signal,
          // Prepared: a run claimed ahead waits here for the worker's slot, then its calls begin.
          ready: async () => {
            await worker.mayStart?.();
            callsStartedAt = Date.now();
          },
          onVerdict: async (verdict) => {
            const unit = unitOf.get(verdict.key);
            if (!unit) return;
            await verdicts.add({ unit, verdict });
            stored++;
            noteProgress();
          },
        },
        env,
      );
    } finally {
      // Also when the run stops early (a cancel): the score covers every verdict it stored.
      if (stored > 0) await storeFinalScore();
    }
  } else if (done.size > 0) {
    // Every unit was stored by an earlier attempt, which lost its lease (a stalled worker) before
    // its own last recompute: the score it left may miss its last verdicts.
    await storeFinalScore();
  }
  return { run, unitsLeft: units.length - done.size - stored };

  /** The root score from every verdict stored. Not after the lease is lost: nothing more may be written under it. */
  async function storeFinalScore(): Promise<void> {
    if (controller.signal.reason instanceof LostLease) return;
    await storeJudgeRunScore(store, { grading: grading!, jobId: job.id, leaseId }).catch((err: unknown) => {
      if (!(err instanceof LostLease)) throw err;
    });
  }
}
