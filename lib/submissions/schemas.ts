import { z } from "zod";
import { text } from "@/lib/text";
import { VARIANTS } from "@/lib/grading/variant";

/** Agents are named by people (`o3-mini / BasicAgent`); the name is the agent's identity. */
export const agentNameSchema = text()
  .trim()
  .min(1, "is required")
  .max(200, "must be at most 200 characters")
  // `*`, not `+`: an empty name is "is required" alone.
  .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters");

/** `variantSchema` with the message an import gives. */
export const submissionVariantSchema = z.enum(VARIANTS, { error: "must be full or code-dev" });

/** 1-based index of an agent's run on a paper. */
export const runIndexSchema = z.coerce
  .number({ error: "must be a whole number" })
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(100_000, "must be at most 100000");

/** A flag sent as JSON (`true`) or as a form field (`1`, `true`, `on`; absent is false). */
export const flagSchema = z
  .union([z.boolean(), z.enum(["0", "1", "true", "false", "on", "off", ""], { error: "must be true or false" })])
  .optional()
  .transform((v) => v === true || v === "1" || v === "true" || v === "on");

/** A new agent's scaffold or model (`BasicAgent`, `o1`): one line, kept apart from the name's separator. */
const agentPartSchema = text()
  .trim()
  .min(1, "is required")
  .max(90, "must be at most 90 characters")
  .regex(/^[^\u0000-\u001f\u007f·]+$/, "must not contain control characters or ·");

/** How the studio names an agent from its scaffold and model, as the demo and the leaderboard do: `BasicAgent · o1`. */
export function agentNameOf(scaffold: string, model: string): string {
  return `${scaffold.trim()} · ${model.trim()}`;
}

/**
 * What says which run a graded file belongs to (API fields and CLI flags). `agentScaffold` and
 * `agentModel` describe an agent the import creates; an existing agent keeps its own.
 */
export const gradingImportFieldsSchema = z.object({
  agent: agentNameSchema,
  agentScaffold: agentPartSchema.optional(),
  agentModel: agentPartSchema.optional(),
  run: runIndexSchema,
  variant: submissionVariantSchema.default("full"),
  human: flagSchema,
});
export type GradingImportFields = z.output<typeof gradingImportFieldsSchema>;
