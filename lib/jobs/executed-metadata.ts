import { PAPERBENCH_METADATA_KEYS, type ReproductionMetadata } from "./reproduction-metadata";

/** Stands for `repro_log` while the JSON is laid out: it cannot occur in stored text (it holds NULs). */
const LOG_PLACEHOLDER = "\u0000repro_log\u0000";

/** A replaced run's output is not kept apart: it opens the attempt's log, before the salvage retry's note. */
export const RETRIED_LOG_NOTE = "(this run's output opens repro_log, before the runner's salvage-retry note)";

/**
 * PaperBench's `*_executed_metadata.json`: its own keys, in its order, then the studio's additions
 * (exit code, runner, GPUs, backend, attempt) after them, so PaperBench's readers find what they
 * expect and nothing is lost. Answered as the text before and after `repro_log`'s string content,
 * so the log (up to the runner's cap) goes between them piece by piece, each through
 * `jsonStringContent`, and is never one string in memory. `executed_submission` names the
 * executed submission's export (PaperBench's `submission_executed.tar.gz`), null when the job
 * left none: PaperBench's `ReproductionMetadata.from_dict` requires the key.
 */
export function executedMetadataFrame(
  metadata: ReproductionMetadata,
  executedSubmission: string | null,
): { head: string; tail: string } {
  const ordered: Record<string, unknown> = {};
  for (const key of PAPERBENCH_METADATA_KEYS) {
    if (key === "repro_log") ordered[key] = LOG_PLACEHOLDER;
    else if (key === "executed_submission") ordered[key] = executedSubmission;
    // PaperBench's `ReproScriptRunOutcome.from_dict` requires each replaced run's `repro_log`.
    else if (key === "retried_results")
      ordered[key] = metadata.retried_results.map((r) => ({
        repro_execution_time: r.repro_execution_time,
        timedout: r.timedout,
        repro_log: RETRIED_LOG_NOTE,
        exit_code: r.exit_code,
      }));
    else ordered[key] = metadata[key];
  }
  for (const [key, value] of Object.entries(metadata)) if (!(key in ordered)) ordered[key] = value;
  const [head, tail] = JSON.stringify(ordered, null, 4).split(jsonStringContent(LOG_PLACEHOLDER));
  return { head, tail };
}

/** A piece of a JSON string's content: `text` escaped, without the quotes. */
export function jsonStringContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The whole file at once (a short log). */
export function executedMetadataJson(
  metadata: ReproductionMetadata,
  reproLog: string,
  executedSubmission: string | null,
): string {
  const { head, tail } = executedMetadataFrame(metadata, executedSubmission);
  return head + jsonStringContent(reproLog) + tail;
}
