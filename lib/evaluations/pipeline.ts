import type { Variant } from "@/lib/grading/variant";
import type { JobStatus } from "@/lib/jobs/states";
import type { CellState } from "./policies";
import type { EvaluationPolicies, FailureKind } from "./schemas";

/**
 * Where the pipeline has a submission of an evaluation (stored in `evaluation_cells.stage`):
 * uploaded → reproducing (full variant only) → judging → graded → done; `failed` once a failure
 * has no attempt left under its policy. `graded` lasts until the after-grading step
 * (`onCellGraded`: review sampling) has run; `done` and `failed` are final until a manual retry.
 */
export const PIPELINE_STAGES = ["uploaded", "reproducing", "judging", "graded", "done", "failed"] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

export interface CellFailure {
  kind: FailureKind;
  reason: string;
}

/** What the rule reads of one cell: its stored stage and its current attempt's job or judge run. */
export interface PipelineFacts {
  variant: Variant;
  stage: PipelineStage;
  attempts: number;
  policies: EvaluationPolicies;
  /**
   * The current attempt's reproduce job (null before one is queued); `judgeable`: it executed the
   * submission and its outputs are stored, however it ended (`isJudgeableReproduction`).
   */
  job: { status: JobStatus; exitCode: number | null; reason: string | null; judgeable: boolean } | null;
  /** The current attempt's judge run, with its job's status (null before one is started). */
  judgeRun: { status: JobStatus; reason: string | null; leavesInvalid: number } | null;
  /** The failure stored with the cell (kept through `graded`: invalid leaves the policy counts). */
  failure: CellFailure | null;
}

/** What to do next with a cell. */
export type PipelineStep =
  | { kind: "wait" }
  | { kind: "reproduce" }
  | { kind: "judge" }
  /** The attempt failed and the policy has attempts left: the next attempt redoes `from`. */
  | { kind: "retry"; from: "reproduce" | "judge"; failure: CellFailure }
  /** Graded (with invalid leaves the policy counts or excludes, if `failure`): run the after-grading step. */
  | { kind: "graded"; failure: CellFailure | null }
  /** No attempt left: the policy's fallback decides (`applyPolicies`). */
  | { kind: "failed"; failure: CellFailure };

const ENDED_BADLY: readonly JobStatus[] = ["failed", "timed_out", "cancelled"];

/**
 * The one rule of the pipeline, pure: from a cell's stored stage and its current job or judge
 * run, the next step. Idempotent by construction: a step that was taken changes the stage (or
 * names a job or run), so reading the same facts again after it gives `wait`.
 * A failure retries while the attempts made are at most the policy's `retry` (so `{retry: 2}`
 * allows 3 attempts in all), as `applyPolicies` counts them; then the cell is `failed` and the
 * policy's fallback applies: excluded with the reason "after n retries".
 */
export function nextPipelineStep(f: PipelineFacts): PipelineStep {
  switch (f.stage) {
    case "done":
    case "failed":
      return { kind: "wait" };
    case "graded":
      return { kind: "graded", failure: f.failure };
    case "uploaded":
      return f.variant === "full" ? { kind: "reproduce" } : { kind: "judge" };
    case "reproducing": {
      if (!f.job) return { kind: "reproduce" };
      // As PaperBench: every reproduction that ran is judged (a non-zero exit, a timeout, no reproduce.sh).
      if (f.job.status === "succeeded" || (ENDED_BADLY.includes(f.job.status) && f.job.judgeable))
        return { kind: "judge" };
      if (!ENDED_BADLY.includes(f.job.status)) return { kind: "wait" };
      // Nothing to judge (cancelled, the runner failed before reproduce.sh ran, no outputs): the policy decides.
      const kind: FailureKind = f.job.status === "timed_out" ? "reproduction_timed_out" : "reproduction_failed";
      const detail = f.job.reason ?? (f.job.exitCode !== null ? `exit code ${f.job.exitCode}` : f.job.status);
      const what =
        kind === "reproduction_timed_out"
          ? "reproduction timed out"
          : f.job.status === "cancelled"
            ? "reproduction cancelled"
            : "reproduction failed";
      return failOrRetry(f, { kind, reason: `${what}, nothing to judge: ${detail}` }, "reproduce");
    }
    case "judging": {
      if (!f.judgeRun) return { kind: "judge" };
      const run = f.judgeRun;
      if (run.status === "succeeded") {
        if (run.leavesInvalid === 0) return { kind: "graded", failure: null };
        const failure: CellFailure = {
          kind: "judge_invalid_leaves",
          reason: `the judge left ${run.leavesInvalid} invalid ${run.leavesInvalid === 1 ? "leaf" : "leaves"}`,
        };
        const step = failOrRetry(f, failure, "judge");
        // Out of attempts, the grading stands with those leaves at 0: the policy counts or excludes it.
        return step.kind === "failed" ? { kind: "graded", failure } : step;
      }
      if (!ENDED_BADLY.includes(run.status)) return { kind: "wait" };
      // A judge run that ended without every verdict is a grading with leaves missing: invalid leaves.
      return failOrRetry(
        f,
        {
          kind: "judge_invalid_leaves",
          reason: `the judge run ${run.status === "cancelled" ? "was cancelled" : "failed"}: ${run.reason ?? run.status}`,
        },
        "judge",
      );
    }
  }
}

function failOrRetry(f: PipelineFacts, failure: CellFailure, from: "reproduce" | "judge"): PipelineStep {
  const policy = f.policies[failure.kind];
  if (typeof policy === "object" && f.attempts <= policy.retry) return { kind: "retry", from, failure };
  return { kind: "failed", failure };
}

/** The state `applyPolicies` reads for a pipeline cell. */
export function policyStateOf(stage: PipelineStage, failure: CellFailure | null): CellState {
  if (stage === "done") return failure?.kind === "judge_invalid_leaves" ? "invalid_leaves" : "succeeded";
  if (stage !== "failed") return "pending";
  if (failure?.kind === "reproduction_timed_out") return "timed_out";
  if (failure?.kind === "judge_invalid_leaves") return "invalid_leaves";
  return "failed";
}

/**
 * Seconds left: the mean duration of the finished cells × the cells left ÷ the parallelism seen
 * now (cells in flight, at least 1). Null before any cell finished, or when none is left.
 */
export function estimateEtaS(
  finishedDurationsS: readonly number[],
  cellsLeft: number,
  inFlight: number,
): number | null {
  if (finishedDurationsS.length === 0 || cellsLeft <= 0) return null;
  const mean = finishedDurationsS.reduce((a, b) => a + b, 0) / finishedDurationsS.length;
  return (mean * cellsLeft) / Math.max(1, inFlight);
}

/**
 * The one rule of a retry by hand, whichever button asked (the matrix's Retry, or Retry of the
 * cell's reproduce job on /jobs): a cell whose pipeline ended `failed`, or done with a failure
 * (invalid leaves), starts its next attempt; null for a cell still running or done without
 * failure (it is counted as it is). The matrix's Retry judges again when the reproduction already
 * gave something to judge (or a Code-Dev cell) and the failure was the judge's, else reproduces
 * again; a retry of the reproduce job itself (`from: "reproduce"`) always reproduces again.
 */
export function manualRetryStep(input: {
  variant: Variant;
  stage: PipelineStage;
  failureKind: FailureKind | null;
  /** The cell's current reproduce job (`isJudgeableReproduction`), null when none. */
  job: { judgeable: boolean } | null;
  from?: "reproduce";
}): "reproduce" | "judge" | null {
  if (!(input.stage === "failed" || (input.stage === "done" && input.failureKind !== null))) return null;
  if (input.from === "reproduce") return "reproduce";
  const judgeAgain =
    input.failureKind === "judge_invalid_leaves" && (input.variant === "code-dev" || input.job?.judgeable === true);
  return judgeAgain ? "judge" : "reproduce";
}
