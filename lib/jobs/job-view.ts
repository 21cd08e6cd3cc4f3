import type { JobKind, JobStatus } from "./states";
import type { OutputsIndex } from "./outputs-index";
import type { ReproductionMetadata } from "./reproduction-metadata";

/** One attempt of a job as pages and the CLI see it. */
export interface JobAttemptView {
  attempt: number;
  runnerName: string | null;
  gpuIndices: number[];
  status: JobStatus;
  exitCode: number | null;
  reason: string | null;
  startedAt: string;
  finishedAt: string | null;
}

/** A job as `GET /api/jobs/<id>` answers it (the submission page, `/jobs`, the CLI's `--wait`). */
export interface JobView {
  id: string;
  kind: JobKind;
  status: JobStatus;
  paperId: string;
  submissionId: string | null;
  attempts: number;
  maxAttempts: number;
  gpusRequired: number;
  gpuIndices: number[];
  timeoutS: number;
  runnerName: string | null;
  exitCode: number | null;
  failureReason: string | null;
  cancelRequested: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Wall time of the reproduction as the runner measured it, else start to finish. */
  durationS: number | null;
  outputs: (OutputsIndex & { sha256: string }) | null;
  metadata: ReproductionMetadata | null;
  attemptHistory: JobAttemptView[];
}

/** A judge job's progress on /jobs: its run, the grading it fills, leaves and cost so far. */
export interface JobJudgeProgress {
  runId: string;
  gradingId: string;
  leavesTotal: number;
  leavesDone: number;
  leavesInvalid: number;
  costUsd: number;
}

/** A row of `GET /api/jobs` (the /jobs page). */
export interface JobRow {
  id: string;
  kind: JobKind;
  status: JobStatus;
  paperId: string;
  submissionId: string | null;
  agentName: string | null;
  runIndex: number | null;
  runnerName: string | null;
  gpuIndices: number[];
  attempts: number;
  maxAttempts: number;
  exitCode: number | null;
  failureReason: string | null;
  cancelRequested: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Judge jobs only (null for reproduce jobs, and for a judge job whose run is gone). */
  judge: JobJudgeProgress | null;
}
