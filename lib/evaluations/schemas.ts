import { z } from "zod";
import { text } from "@/lib/text";
import { VARIANTS } from "@/lib/grading/variant";
import { agentNameSchema } from "@/lib/submissions/schemas";
import { DEFAULT_POLICIES } from "./default-policies";

/**
 * What can go wrong with one cell (paper × run) of an evaluation, each with a policy of its own.
 * `blacklisted`: the agent's log names a site of the paper's blacklist (the monitor flagged it).
 */
export const FAILURE_KINDS = [
  "reproduction_failed",
  "reproduction_timed_out",
  "judge_invalid_leaves",
  "blacklisted",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Count the cell as 0, leave it out of its run's mean (the reason shown), or retry it up to n times. */
export const failurePolicySchema = z.union([
  z.literal("zero"),
  z.literal("exclude"),
  z
    .object({
      retry: z.number().int("must be a whole number").min(1, "must be at least 1").max(10, "must be at most 10"),
    })
    .strict(),
]);
export type FailurePolicy = z.infer<typeof failurePolicySchema>;

export const evaluationPoliciesSchema = z
  .object({
    reproduction_failed: failurePolicySchema,
    reproduction_timed_out: failurePolicySchema,
    judge_invalid_leaves: failurePolicySchema,
    // A broken rule is not fixed by running again: counted as 0 or excluded, never retried.
    blacklisted: z
      .enum(["zero", "exclude"], { error: "must be zero or exclude (a flagged run is not retried)" })
      .default("zero"),
  })
  .strict();
export type EvaluationPolicies = z.infer<typeof evaluationPoliciesSchema>;

export const AGGREGATIONS = ["mean", "best_of_n"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** The agent's setup PaperBench asks researchers to report. */
export const evaluationSetupSchema = z
  .object({
    time_limit_h: z.number().positive("must be positive").max(10_000, "must be at most 10000").nullable().default(null),
    hardware: text().trim().max(500, "must be at most 500 characters").nullable().default(null),
    scaffold: text().trim().max(500, "must be at most 500 characters").nullable().default(null),
    tools: text().trim().max(2000, "must be at most 2000 characters").nullable().default(null),
  })
  .strict();
export type EvaluationSetup = z.infer<typeof evaluationSetupSchema>;

/** A split's name (a file of PaperBench's `splits/`), or `custom` with its own paper ids. */
export const splitNameSchema = text()
  .trim()
  .min(1, "is required")
  .max(100, "must be at most 100 characters")
  .regex(/^[A-Za-z0-9_.-]+$/, "must be a split name (letters, digits, _ . -)");

export const reviewSampleSizeSchema = z
  .number()
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(10_000, "must be at most 10000");

export const createEvaluationSchema = z
  .object({
    name: text().trim().min(1, "is required").max(200, "must be at most 200 characters"),
    agent: agentNameSchema,
    split: splitNameSchema.default("custom"),
    /** The papers of a `custom` split (else the split's own). */
    paperIds: z
      .array(text().trim().min(1, "is required").max(200, "must be at most 200 characters"))
      .max(1000, "must be at most 1000 papers")
      .default([]),
    runs: z.number().int("must be a whole number").min(1, "must be at least 1").max(100, "must be at most 100"),
    variant: z.enum(VARIANTS, { error: "must be full or code-dev" }).default("full"),
    policies: evaluationPoliciesSchema.default(DEFAULT_POLICIES),
    aggregation: z.enum(AGGREGATIONS, { error: "must be mean or best_of_n" }).default("mean"),
    resourcesProvided: z.boolean().default(false),
    setup: evaluationSetupSchema.default({ time_limit_h: null, hardware: null, scaffold: null, tools: null }),
    isHuman: z.boolean().default(false),
    /** Leaves per grading drawn for human review (`lib/evaluations/review-sampling.ts`); null: no sampling. */
    reviewSampleSize: reviewSampleSizeSchema.nullable().default(null),
    /**
     * The judge configuration the pipeline grades with; absent: `chooseDefaultJudge`'s choice at
     * creation (the dialog's preselection: a model judge in paperbench mode first), else the
     * default when judging starts.
     */
    judgeConfigId: z.uuid({ error: "must be a judge configuration's id" }).nullable().default(null),
  })
  .strict();
export type CreateEvaluationInput = z.input<typeof createEvaluationSchema>;
export type CreateEvaluationFields = z.output<typeof createEvaluationSchema>;

export const exportFormatSchema = z.enum(["json", "csv"], { error: "must be json or csv" });

/** What PaperBench's `grade.json` said of an ingested run, kept on its submission. */
export interface ImportedRunResult {
  /** PaperBench's run id (`<paper>_<uuid>`) and run group. */
  runId: string | null;
  runGroupId: string;
  /** PaperBench's `ReproductionMetadata` (from `submission_executed_metadata.json`, else the grade's), when reproduced. */
  reproduction: Record<string, unknown> | null;
  /** The grade had no judge output (PaperBench scores such a run 0). */
  judgeOutputMissing: boolean;
  codeOnly: boolean | null;
  resourcesProvided: boolean | null;
  /** PaperBench's `score` of the grade. */
  score: number | null;
}

/**
 * Human review sampling of an evaluation (staff): leaves drawn per grading (null: none) and the
 * graders (graders of the papers, or staff, by email) who get the samples in turn.
 */
export const reviewSamplingSchema = z
  .object({
    sampleSize: reviewSampleSizeSchema.nullable(),
    graders: z
      .array(text().trim().min(1, "is required").max(320, "must be at most 320 characters"))
      .max(100, "must be at most 100 graders")
      .default([]),
  })
  .strict();
export type ReviewSamplingInput = z.input<typeof reviewSamplingSchema>;
