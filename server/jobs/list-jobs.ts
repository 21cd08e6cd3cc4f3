import "server-only";
import type { Store } from "@/db/client";
import { countQueuedJobs, listJobs } from "@/db/queries/jobs";
import type { JobRow } from "@/lib/jobs/job-view";
import type { JobKind, JobStatus } from "@/lib/jobs/states";

/** /jobs: how many wait per kind, and the jobs themselves (newest first). */
export async function listJobsForStaff(
  store: Store,
  filter: { statuses: JobStatus[]; kind?: JobKind; paperId?: string; limit: number },
): Promise<{ queued: Record<JobKind, number>; jobs: JobRow[] }> {
  const [queued, rows] = await Promise.all([countQueuedJobs(store.db), listJobs(store.db, filter)]);
  return {
    queued,
    jobs: rows.map(({ job, runnerName, agentName, runIndex, judgeRun }) => ({
      id: job.id,
      kind: job.kind,
      status: job.status,
      paperId: job.paperId,
      submissionId: job.submissionId,
      agentName,
      runIndex,
      runnerName,
      gpuIndices: job.gpuIndices,
      attempts: job.attempts,
      maxAttempts: job.maxAttempts,
      exitCode: job.exitCode,
      failureReason: job.failureReason,
      cancelRequested: job.cancelRequestedAt !== null,
      createdAt: job.createdAt.toISOString(),
      startedAt: job.startedAt?.toISOString() ?? null,
      finishedAt: job.finishedAt?.toISOString() ?? null,
      judge: judgeRun && {
        runId: judgeRun.id,
        gradingId: judgeRun.gradingId,
        leavesTotal: judgeRun.leavesTotal,
        leavesDone: judgeRun.leavesDone,
        leavesInvalid: judgeRun.leavesInvalid,
        costUsd: judgeRun.costUsd,
      },
    })),
  };
}
