import { z } from "zod";
import { JOB_TIMINGS } from "./states";
import { text } from "@/lib/text";
import { reservedEnvNameMessage } from "./reserved-env-names";

/**
 * A paper's reproduction settings as staff set them (paper page → Settings), and the defaults of a
 * paper that has none. Secrets are set apart (names only here; values never leave the server but
 * to the runner of one of the paper's jobs).
 */
export const DEFAULT_RUN_SETTINGS = {
  /** PaperBench's 24 hours. */
  timeoutS: JOB_TIMINGS.defaultTimeoutS,
  gpus: 0,
  /** reproduce.sh may not reach the network unless staff allow it for the paper. */
  network: false,
  /** PaperBench re-runs any run shorter than 600 s; here only a failed one, and only when asked. */
  salvageRetryBelowS: 0,
  /** The job's disk: its copy of the submission, /tmp and HOME together (pip and model caches are large). */
  diskLimitMiB: 50 * 1024,
  memoryLimitMiB: 32 * 1024,
  /** Processes and threads at once (a data loader with many workers fits; a fork bomb does not). */
  processLimit: 4096,
} as const;

/** The outputs archive leaves out files larger than this (PaperBench: 10 MiB). */
export const MAX_OUTPUT_FILE_BYTES = 10 * 1024 * 1024;

export const runSettingsSchema = z.object({
  timeoutS: z
    .number({ error: "must be a number of seconds" })
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1 second")
    .max(7 * 24 * 3600, "must be at most 7 days"),
  gpus: z
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be at least 0")
    .max(64, "must be at most 64"),
  network: z.boolean({ error: "must be true or false" }),
  salvageRetryBelowS: z
    .number({ error: "must be a number of seconds" })
    .int("must be a whole number of seconds")
    .min(0, "must be at least 0 (0 = off)")
    .max(24 * 3600, "must be at most 24 hours (86400 seconds)"),
  // Limits left out (an older client, a script setting the first four) take the defaults.
  diskLimitMiB: z
    .number({ error: "must be a number of MiB" })
    .int("must be a whole number of MiB")
    .min(64, "must be at least 64 MiB")
    .max(16 * 1024 * 1024, "must be at most 16 TiB")
    .default(DEFAULT_RUN_SETTINGS.diskLimitMiB),
  memoryLimitMiB: z
    .number({ error: "must be a number of MiB" })
    .int("must be a whole number of MiB")
    .min(64, "must be at least 64 MiB")
    .max(4 * 1024 * 1024, "must be at most 4 TiB")
    .default(DEFAULT_RUN_SETTINGS.memoryLimitMiB),
  processLimit: z
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(16, "must be at least 16")
    .max(1_000_000, "must be at most 1,000,000")
    .default(DEFAULT_RUN_SETTINGS.processLimit),
});
export type RunSettings = z.infer<typeof runSettingsSchema>;

/** A secret's name as stored: an environment variable's (`HF_TOKEN`). Deleting takes any such name, so one stored before the reserved names were refused can go. */
export const secretNameShapeSchema = z
  .string()
  .regex(
    /^[A-Z_][A-Z0-9_]{0,63}$/,
    "must be an environment variable name: capital letters, digits and _, not starting with a digit",
  );

/** A name a secret may be set under: the shape, and none of the reserved names (`lib/jobs/reserved-env-names.ts`). */
export const secretNameSchema = secretNameShapeSchema.superRefine((name, ctx) => {
  const refusal = reservedEnvNameMessage(name);
  if (refusal) ctx.addIssue({ code: "custom", message: refusal });
});

/** A secret's value is an environment variable's: reproduce.sh reads it, so it must fit one. */
export const MAX_SECRET_VALUE_BYTES = 16 * 1024;

/** A secret's value. The messages never quote it: a refusal must not echo a secret back. */
export const secretValueSchema = text()
  .min(1, "must not be empty")
  .refine((value) => new TextEncoder().encode(value).byteLength <= MAX_SECRET_VALUE_BYTES, "must be at most 16 KiB");
