import { z } from "zod";
import { judgeConfigInputSchema } from "./config";
import { submissionVariantSchema } from "@/lib/submissions/schemas";

/** `POST /api/judge/configs`: a configuration, and whether it becomes the default. */
export const judgeConfigCreateSchema = judgeConfigInputSchema.extend({ isDefault: z.boolean().optional() });

/** `PATCH /api/judge/configs/<id>`: some fields; `isDefault: true` makes it the default. */
export const judgeConfigPatchSchema = judgeConfigInputSchema
  .partial()
  .extend({ isDefault: z.literal(true, { error: "can only be true" }).optional() });

const uuid = z.uuid({ error: "must be an id" });

/** PaperBench's `max_depth` (root = 1): non-leaves at this depth are graded as one pseudo-leaf; null or absent: every leaf. */
export const maxDepthSchema = z
  .number({ error: "must be a whole number" })
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(50, "must be at most 50")
  .nullable()
  .optional();

/**
 * `POST /api/judge/runs` and `POST /api/judge/estimate`: which submissions (a selection, or every
 * run of an agent on a paper), with which configuration, variant and depth, against the paper's
 * rubric as it is now (pinned as a version) or a chosen version.
 */
export const judgeRunRequestSchema = z
  .object({
    submissionIds: z
      .array(uuid)
      .min(1, "must name at least one submission")
      .max(200, "must name at most 200 submissions")
      .optional(),
    paperId: z.string().min(1).max(200).optional(),
    agentId: uuid.optional(),
    configId: uuid,
    variant: submissionVariantSchema,
    maxDepth: maxDepthSchema,
    rubricVersionId: uuid.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    const bySelection = v.submissionIds !== undefined;
    const byAgent = v.paperId !== undefined || v.agentId !== undefined;
    if (bySelection === byAgent) {
      ctx.addIssue({
        code: "custom",
        path: ["submissionIds"],
        message: "name either submissionIds or paperId and agentId",
      });
    } else if (byAgent && (v.paperId === undefined || v.agentId === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [v.paperId === undefined ? "paperId" : "agentId"],
        message: "is required with the other",
      });
    }
  });
export type JudgeRunRequest = z.infer<typeof judgeRunRequestSchema>;
