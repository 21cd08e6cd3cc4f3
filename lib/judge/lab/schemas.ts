import { z } from "zod";
import type { Variant } from "@/lib/grading/variant";
import { submissionVariantSchema } from "@/lib/submissions/schemas";
import { text } from "@/lib/text";

const uuid = z.uuid({ error: "must be an id" });

/** A lab's variant until staff pick one: Code-Dev needs only the submitted files, full a reproduction of each submission. */
export const DEFAULT_LAB_VARIANT: Variant = "code-dev";

/**
 * `POST /api/judge-lab`: one judge run per configuration × submission, every one graded in the
 * variant chosen (full grades each reproduction's outputs; Code-Dev the submitted code).
 */
export const startJudgeLabSchema = z.object({
  name: text().trim().max(200, "must be at most 200 characters").optional(),
  variant: submissionVariantSchema,
  configIds: z.array(uuid).min(1, "choose at least one configuration").max(10, "at most 10 configurations"),
  submissionIds: z.array(uuid).min(1, "choose at least one submission").max(100, "at most 100 submissions"),
});
export type StartJudgeLabRequest = z.infer<typeof startJudgeLabSchema>;

/** `POST /api/judge-lab/papers/<id>/suggestions`: suggest addendum text through a configuration. */
export const suggestAddendumSchema = z.object({
  configId: uuid,
  /** Only these overrides (default: every override of the paper with a reason). */
  overrideIds: z.array(uuid).max(500, "at most 500 overrides").optional(),
});

/**
 * `POST /api/judge-lab/papers/<id>/addendum`: the text staff accepted, the overrides it came from,
 * and the version it was edited from (a 409 when another was accepted meanwhile).
 */
export const acceptAddendumSchema = z.object({
  text: text().max(100_000, "must be at most 100000 characters"),
  overrideIds: z.array(uuid).max(500, "at most 500 overrides"),
  note: text().trim().max(2_000, "must be at most 2000 characters").optional(),
  baseVersion: z.number({ error: "must be a version number" }).int().min(0),
});
export type AcceptAddendumRequest = z.infer<typeof acceptAddendumSchema>;
