import { z } from "zod";

/**
 * What a reproduction leaves behind: PaperBench's `ReproductionMetadata` fields (the keys of its
 * `*_executed_metadata.json`, in its order) plus what PaperBench loses or does not know: the exit
 * status of reproduce.sh, the runner, its GPUs, the backend and the attempt.
 */
export const reproductionMetadataSchema = z.object({
  is_valid_git_repo: z.boolean(),
  git_log: z.string().nullable(),
  repro_script_exists: z.boolean(),
  files_before_reproduce: z.string(),
  files_after_reproduce: z.string().nullable(),
  timedout: z.boolean(),
  repro_log: z.string(),
  retried_results: z.array(z.record(z.string(), z.unknown())),
  repro_execution_time: z.number().nullable(),
  git_status_after_reproduce: z.string().nullable(),
  // Beyond PaperBench:
  exit_code: z.number().int().nullable(),
  runner: z.string(),
  gpus: z.array(z.string()),
  backend: z.string(),
  attempt: z.number().int(),
});
export type ReproductionMetadata = z.infer<typeof reproductionMetadataSchema>;

/** PaperBench's own keys, in its order: the export writes exactly these. */
export const PAPERBENCH_METADATA_KEYS = [
  "is_valid_git_repo",
  "git_log",
  "repro_script_exists",
  "files_before_reproduce",
  "files_after_reproduce",
  "timedout",
  "repro_log",
  "retried_results",
  "repro_execution_time",
  "git_status_after_reproduce",
] as const;
