/**
 * The judge as pages and the API see it: a configuration (never a key, only whether its variable
 * is set where the studio runs), a run's estimate and its progress. Pure; shared by routes and the
 * browser.
 */
import type { JudgeConfigInput, JudgeKind } from "./config";
import type { JudgeEstimate } from "./engine-contract";
import type { Variant } from "@/lib/grading/variant";
import type { JobStatus } from "@/lib/jobs/states";

export interface JudgeConfigView extends JudgeConfigInput {
  id: string;
  isDefault: boolean;
  isDemo: boolean;
  archived: boolean;
  /** Whether `apiKeyEnv` is set on the studio's server; null when the configuration names none. */
  apiKeySet: boolean | null;
  /** Runs can start with it: dummy and random always; an llm once the key it names is set (or it needs none). */
  ready: boolean;
}

export function isJudgeConfigReady(kind: JudgeKind, apiKeySet: boolean | null): boolean {
  return kind !== "llm" || apiKeySet !== false;
}

/** An estimate as the start dialog shows it: the engine's counts and their cost at the configuration's prices. */
export interface JudgeEstimateView extends JudgeEstimate {
  costUsd: number;
}

/** `POST /api/judge/estimate`: per submission, and the sum. */
export interface JudgeEstimateAnswer {
  runs: { submissionId: string; agentName: string; runIndex: number; estimate: JudgeEstimateView }[];
  total: JudgeEstimateView;
  /** The runs' papers that have no paper text (an imported PaperBench folder ships none): a model judge grades them without the paper. */
  papersWithoutText: { id: string; title: string }[];
}

export type JudgeRunStatus = "queued" | "running" | "succeeded" | "failed" | "timed_out" | "cancelled";

/** A run's status is its job's; a run whose job is gone was cancelled with it. */
export function judgeRunStatus(jobStatus: JobStatus | null | undefined): JudgeRunStatus {
  return jobStatus ?? "cancelled";
}

/** A submission's latest judge run as the paper's Submissions list shows it. */
export interface LatestJudgeRunView {
  runId: string;
  gradingId: string;
  status: JudgeRunStatus;
  leavesDone: number;
  leavesTotal: number;
  leavesInvalid: number;
}

/** `GET /api/judge/runs/<id>`: a run's progress, and its estimate beside what it actually took. */
export interface JudgeRunView {
  id: string;
  gradingId: string;
  submissionId: string;
  paperId: string;
  jobId: string | null;
  status: JudgeRunStatus;
  cancelRequested: boolean;
  failureReason: string | null;
  configName: string;
  kind: JudgeKind;
  model: string;
  variant: Variant;
  maxDepth: number | null;
  leavesTotal: number;
  leavesDone: number;
  leavesInvalid: number;
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  costUsd: number;
  estimate: JudgeEstimateView | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  /** Seconds left at the pace so far; null before the first verdict or once ended. */
  etaS: number | null;
}

/** A run on the submission page: with its grading's root score once it succeeded (null before, or where the viewer's review hides a verdict under it). */
export interface SubmissionJudgeRunView extends JudgeRunView {
  score: number | null;
}

/** Seconds left at the pace so far (verdicts per second since the start). */
export function judgeEtaS(
  run: { leavesDone: number; leavesTotal: number; startedAt: string | null },
  nowMs: number,
): number | null {
  if (!run.startedAt || run.leavesDone === 0 || run.leavesDone >= run.leavesTotal) return null;
  const elapsedS = (nowMs - Date.parse(run.startedAt)) / 1000;
  if (!(elapsedS > 0)) return null;
  return Math.round(((run.leavesTotal - run.leavesDone) * elapsedS) / run.leavesDone);
}
