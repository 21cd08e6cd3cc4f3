import "server-only";
import type { Store } from "@/db/client";
import { getJudgeRunWithJob, listJudgeRunsBySubmissionId } from "@/db/queries/judge-runs";
import { getSubmissionById } from "@/db/queries/submissions";
import type { Job, JudgeRun, User } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { JudgeConfigInput } from "@/lib/judge/config";
import type { EffectiveRole } from "@/lib/auth/access";
import {
  judgeEtaS,
  judgeRunStatus,
  type JudgeEstimateView,
  type JudgeRunView,
  type SubmissionJudgeRunView,
} from "@/lib/judge/views";
import { listAssignedGradings } from "@/server/gradings/assigned-gradings";
import { isUuid } from "@/lib/uuid";
import { requirePaperItemRole } from "@/server/access/paper-item-access";

export function toJudgeRunView(run: JudgeRun, job: Job | null, paperId: string, nowMs = Date.now()): JudgeRunView {
  const config = run.config as JudgeConfigInput;
  const startedAt = run.startedAt?.toISOString() ?? null;
  const status = judgeRunStatus(job?.status);
  const running = status === "running" || status === "queued";
  return {
    id: run.id,
    gradingId: run.gradingId,
    submissionId: run.submissionId,
    paperId,
    jobId: run.jobId,
    status,
    cancelRequested: job?.cancelRequestedAt != null,
    failureReason: job?.failureReason ?? null,
    configName: config.name,
    kind: config.kind,
    model: config.model,
    variant: run.variant,
    maxDepth: run.maxDepth,
    leavesTotal: run.leavesTotal,
    leavesDone: run.leavesDone,
    leavesInvalid: run.leavesInvalid,
    calls: run.calls,
    inputTokens: run.inputTokens,
    cachedInputTokens: run.cachedInputTokens,
    outputTokens: run.outputTokens,
    reasoningTokens: run.reasoningTokens,
    costUsd: run.costUsd,
    estimate: (run.estimate as JudgeEstimateView | null) ?? null,
    startedAt,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    createdAt: run.createdAt.toISOString(),
    etaS: running ? judgeEtaS({ leavesDone: run.leavesDone, leavesTotal: run.leavesTotal, startedAt }, nowMs) : null,
  };
}

export async function readJudgeRun(store: Store, runId: string): Promise<JudgeRunView | null> {
  const found = isUuid(runId) ? await getJudgeRunWithJob(store.db, runId) : null;
  if (!found) return null;
  const paperId = found.job?.paperId ?? (await getSubmissionById(store.db, found.run.submissionId))?.paperId ?? "";
  return toJudgeRunView(found.run, found.job, paperId);
}

/**
 * A run, once the user may see it: staff, and the members of its submission's paper (they follow
 * its progress); anyone else learns nothing of it. Cancelling is staff's.
 */
export async function requireJudgeRunAccess(
  store: Store,
  user: User,
  runId: string,
  access: "view" | "manage",
): Promise<JudgeRunView> {
  const run = await readJudgeRun(store, runId);
  if (!run) throw new AppError("not_found", "No such judge run");
  await requirePaperItemRole(store, user, run.paperId, access, { item: "judge run", action: "cancel a judge run" });
  return run;
}

/**
 * A submission's runs, newest first (the submission page), each with its root score once it
 * succeeded: for a grader only on a grading assigned to them whose verdicts their assignment all
 * shows (`listAssignedGradings`, as the paper's list of gradings does).
 */
export async function listSubmissionJudgeRuns(
  store: Store,
  submission: { id: string; paperId: string },
  viewer: { userId: string; role: Exclude<EffectiveRole, null> },
): Promise<SubmissionJudgeRunView[]> {
  const assigned = viewer.role === "grader" ? await listAssignedGradings(store, viewer.userId) : null;
  return (await listJudgeRunsBySubmissionId(store.db, submission.id)).map(({ run, job, score }) => {
    const view = toJudgeRunView(run, job, submission.paperId);
    const shown =
      view.status === "succeeded" && (assigned === null || assigned.get(run.gradingId)?.scoreHidden === false);
    return { ...view, score: shown ? score : null };
  });
}
