import { z } from "zod";
import { keptText } from "@/lib/text";

const kept = () => keptText(z.string());

/** A run that PaperBench's salvage retry replaced: how it ended (its output is in the attempt's log). */
export const retriedRunSchema = z.object({
  repro_execution_time: z.number(),
  timedout: z.boolean(),
  exit_code: z.number().int().nullable(),
});

/**
 * What a reproduction leaves behind: PaperBench's `ReproductionMetadata` fields (the keys of its
 * `*_executed_metadata.json`, in its order) plus what PaperBench loses or does not know: the exit
 * status of reproduce.sh, the runner, its GPUs, the backend and the attempt.
 *
 * Less `repro_log`: the log is not sent twice. The studio has it from the runner's log chunks, and
 * the export (`submission_executed_metadata.json`) fills `repro_log` from them; a job's whole
 * output never rides in one request (it may be up to the runner's log cap, 1 GiB by default).
 */
export const reproductionMetadataSchema = z.object({
  is_valid_git_repo: z.boolean(),
  git_log: kept().nullable(),
  repro_script_exists: z.boolean(),
  files_before_reproduce: kept(),
  files_after_reproduce: kept().nullable(),
  timedout: z.boolean(),
  retried_results: z.array(retriedRunSchema),
  repro_execution_time: z.number().nullable(),
  git_status_after_reproduce: kept().nullable(),
  // Beyond PaperBench:
  exit_code: z.number().int().nullable(),
  runner: kept(),
  gpus: z.array(kept()),
  backend: kept(),
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
  "executed_submission",
] as const;
