import { formatDurationS } from "./duration";
import type { JobStatus } from "./states";

/**
 * PaperBench judges every reproduction that executed the submission, however it ended: a
 * reproduce.sh that exited non-zero, one stopped at its timeout, even a submission without
 * reproduce.sh (`paperbench/nano/task.py`: any `ReproductionMetadata` is graded; the executed
 * submission is always tarred). So does the studio: a reproduce job that ended `succeeded`,
 * `failed` or `timed_out` with its outputs (the executed submission) stored is a judge source. A
 * cancelled job, and one whose runner or backend failed before reproduce.sh ran (the runner then
 * uploads no outputs), leave nothing to judge: the evaluation's failure policies decide those.
 */
const EXECUTED: readonly JobStatus[] = ["succeeded", "failed", "timed_out"];

export interface ReproductionFacts {
  kind: string;
  status: JobStatus;
  outputsSha256: string | null;
}

export function isJudgeableReproduction(job: ReproductionFacts): boolean {
  return job.kind === "reproduce" && EXECUTED.includes(job.status) && job.outputsSha256 !== null;
}

/** The first judgeable reproduction of `jobs` (newest first, as the job queries list them), or null. */
export function latestJudgeableReproduction<J extends ReproductionFacts>(jobs: readonly J[]): J | null {
  return jobs.find(isJudgeableReproduction) ?? null;
}

export interface ReproductionEnd {
  status: JobStatus;
  exitCode: number | null;
  /** Seconds reproduce.sh ran (the job's measured duration); null when unknown. */
  durationS: number | null;
  /** The paper's timeout, for a timed-out job. */
  timeoutS: number | null;
  /** The runner's reason, when the job failed without an exit status. */
  reason: string | null;
}

/**
 * How a reproduction ended, for reviewers beside its verdicts and on its evaluation cell:
 * "reproduce.sh exited 1 after 3 min", "timed out after 2 h", "reproduce.sh exited 0 after 40 s".
 * Null while it has not ended.
 */
export function describeReproductionEnd(end: ReproductionEnd): string | null {
  const after = end.durationS !== null ? ` after ${formatDurationS(end.durationS)}` : "";
  switch (end.status) {
    case "timed_out":
      return `timed out after ${formatDurationS(end.timeoutS ?? end.durationS ?? 0)}`;
    case "cancelled":
      return `cancelled${after}`;
    case "succeeded":
    case "failed":
      if (end.exitCode !== null) return `reproduce.sh exited ${end.exitCode}${after}`;
      return end.reason ?? `reproduce.sh failed${after}`;
    default:
      return null;
  }
}
