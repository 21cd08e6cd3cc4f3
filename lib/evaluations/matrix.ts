import { z } from "zod";
import { text } from "@/lib/text";
import type { Variant } from "@/lib/grading/variant";
import type { Agreement } from "./agreement";
import type { PolicyResult } from "./policies";
import type { Aggregation, EvaluationPolicies, EvaluationSetup, FailureKind } from "./schemas";
import type { GradingProvenance } from "./provenance";
import type { JudgeKind, JudgeMode } from "@/lib/judge/config";
import type { ScoringMethod } from "./scoring-method";

/**
 * The evaluation page's contract: `GET /api/evaluations/<id>/matrix` answers an `EvaluationMatrix`;
 * `GET /api/evaluations/<id>/stream` (SSE) sends `event: cell` (data `{"evaluationId"}`) after any
 * cell of the evaluation changed (a job started or ended, a judge run's progress at most once a
 * second, a grading done, a retry), and `event: access-ended` when the viewer's access is gone:
 * the page refetches the matrix, debounced. `POST /api/evaluations/<id>/retry` takes
 * `RetryCellsInput` and answers `RetryCellsResult`. Export: `/api/evaluations/<id>/export?format=json|csv`.
 */

/**
 * Where a cell (a paper × a run) stands in the pipeline:
 * uploaded → reproducing (full variant only) → judging → graded → in_review (when sampled) → counted.
 * - `empty`: no submission for this paper × run yet.
 * - `uploaded`: a submission, nothing started on it yet (the pipeline starts it; an ingested run
 *   without a grade stays here).
 * - `reproducing`: its reproduce job is queued or running (`attempts` says which attempt).
 * - `judging`: its judge run is queued or running.
 * - `graded`: the grading is complete; the after-grading step (review sampling) has not run yet.
 * - `in_review`: leaves of its grading were sampled for human review and are not all reviewed.
 * - `counted`: it enters its run's mean; `score` is what counts (0 under a `zero` policy, then
 *   `failure` says why).
 * - `failed`: its last attempt failed and the policy retries it: the next attempt is being started.
 * - `excluded`: left out of its run's mean (policy `exclude`, or retries used up); `failure` says why.
 */
export const MATRIX_STAGES = [
  "empty",
  "uploaded",
  "reproducing",
  "judging",
  "graded",
  "in_review",
  "counted",
  "failed",
  "excluded",
] as const;
export type MatrixStage = (typeof MATRIX_STAGES)[number];

export interface MatrixCellFailure {
  kind: FailureKind;
  /** What went wrong and what the policy made of it: "reproduction failed (exit code 1): count as 0". */
  reason: string;
}

export interface MatrixCell {
  paperId: string;
  /** 1-based run of the evaluation. */
  run: number;
  stage: MatrixStage;
  /** The state the policies read (`lib/evaluations/policies.ts`). */
  state: "pending" | "succeeded" | "failed" | "timed_out" | "invalid_leaves";
  /** The score that counts (counted), or the grading's root score so far; null when none. */
  score: number | null;
  submissionId: string | null;
  gradingId: string | null;
  /** The latest reproduce job and judge run of the cell. */
  jobId: string | null;
  judgeRunId: string | null;
  /** Attempts made (a retry adds one); 0 for an empty cell, 1 for an ingested result. */
  attempts: number;
  failure: MatrixCellFailure | null;
  /**
   * How the cell's reproduce job ended, for reviewers ("reproduce.sh exited 1 after 3 min",
   * "timed out after 2 h"): a reproduction that ran is judged however it ended, so this is where
   * its exit shows. Null before it ended or without one (Code-Dev, an ingested result).
   */
  reproduction: string | null;
  /** The agent's log names a blacklisted site (the `blacklisted` policy decides the cell). */
  flagged: boolean;
  /** Pages to click through to (`/submissions/<id>`, `/gradings/<id>`); null when there is nothing to show. */
  href: { submission: string | null; grading: string | null };
}

export interface MatrixProgress {
  /** Cells counted or excluded, of papers × runs. */
  done: number;
  total: number;
  /**
   * Seconds left: the mean duration of the finished pipeline cells (start of the first attempt to
   * graded or failed) × cells left ÷ the parallelism observed (cells in flight now, at least 1).
   * Null before any cell finished or when nothing is left.
   */
  etaS: number | null;
  /** Σ over every reproduce attempt of its duration × the GPUs its runner claimed, in hours. */
  gpuHours: number;
  /** Judge runs' token usage and cost (every attempt). */
  judgeTokens: { input: number; cachedInput: number; output: number };
  costUsd: number;
}

export interface EvaluationMatrix {
  evaluation: {
    id: string;
    name: string;
    agent: string;
    split: string;
    runs: number;
    variant: Variant;
    /** The policies as chosen, and as they read ("count as 0", "exclude", "retry up to 2, then exclude"). */
    policies: EvaluationPolicies;
    policyText: Record<FailureKind, string>;
    aggregation: Aggregation;
    isHuman: boolean;
    resourcesProvided: boolean;
    setup: EvaluationSetup;
    /** The judge configuration its gradings use; null for an evaluation built from ingested results only. */
    judgeConfig: { id: string; name: string; kind: JudgeKind; mode: JudgeMode } | null;
    createdAt: string;
  };
  /**
   * How its gradings were made: the leaderboard's mark under the evaluation's policies ("PaperBench
   * method", "efficient mode", "placeholder judge — not public", …) and each distinct provenance
   * of the graded cells (usually one).
   */
  scoring: { method: ScoringMethod; provenances: GradingProvenance[] };
  /** Every paper of the evaluation (its split's, and any it holds a run of), sorted. */
  papers: string[];
  /** One per paper × run, in paper then run order. */
  cells: MatrixCell[];
  progress: MatrixProgress;
  /** Each run's score, the mean and standard error, every excluded cell with its reason. */
  result: PolicyResult;
  /** Judge–human agreement on the leaves sampled for review; null before any is reviewed. */
  agreement: Agreement | null;
}

/** `POST /api/evaluations/<id>/retry` (staff): some cells, or every failed or excluded-by-failure one. */
export const retryCellsSchema = z.union([
  z
    .object({
      cells: z
        .array(
          z
            .object({
              paperId: text().trim().min(1, "is required").max(200, "must be at most 200 characters"),
              run: z.number().int("must be a whole number").min(1, "must be at least 1"),
            })
            .strict(),
        )
        .min(1, "must name at least one cell")
        .max(10_000, "must be at most 10000 cells"),
    })
    .strict(),
  z.object({ allFailed: z.literal(true) }).strict(),
]);
export type RetryCellsInput = z.input<typeof retryCellsSchema>;
export interface RetryCellsResult {
  /** Cells whose next attempt was started. */
  retried: number;
}
