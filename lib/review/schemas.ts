import { z } from "zod";
import { text } from "@/lib/text";

/** `POST /api/gradings/<id>/scores`: a score committed on one leaf. */
export const reviewCommitSchema = z.object({
  nodeKey: z.uuid("must be a node key"),
  score: z.number({ error: "must be a number" }).min(0, "must be between 0 and 1").max(1, "must be between 0 and 1"),
  reason: text().max(10_000, "must be at most 10,000 characters").default(""),
  // Time on the leaf before committing; an hour at most counts (a grader who walked away).
  timeSpentMs: z
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be at least 0")
    .transform((ms) => Math.min(ms, 3_600_000))
    .default(0),
});
export type ReviewCommitInput = z.output<typeof reviewCommitSchema>;

/** `POST /api/gradings/<id>/assignments`: assign the grading, or subtrees of it, to a grader. */
export const assignmentSchema = z.object({
  email: text().trim().min(1, "is required").max(320, "must be at most 320 characters"),
  nodeKeys: z.array(z.uuid("must be a node key")).max(10_000, "at most 10,000 nodes").nullable().default(null),
  blind: z.boolean({ error: "must be true or false" }).default(false),
});
export type AssignmentInput = z.output<typeof assignmentSchema>;

/** `POST /api/gradings/<id>/unsure`: flag a leaf as unsure, with a note for staff. */
export const unsureFlagSchema = z.object({
  nodeKey: z.uuid("must be a node key"),
  note: text().trim().max(2_000, "must be at most 2,000 characters").default(""),
});
export type UnsureFlagInput = z.output<typeof unsureFlagSchema>;

/** `DELETE /api/gradings/<id>/unsure?nodeKey=…[&userId=…]`: clear a flag (one's own; staff: anyone's). */
export const unsureClearSchema = z.object({
  nodeKey: z.uuid("must be a node key"),
  userId: z.uuid("must be a user id").optional(),
});
export type UnsureClearInput = z.output<typeof unsureClearSchema>;
