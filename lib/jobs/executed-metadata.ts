import { PAPERBENCH_METADATA_KEYS, type ReproductionMetadata } from "@/lib/runner/reproduction-metadata";

/** Stands for `repro_log` while the JSON is laid out: it cannot occur in stored text (it holds NULs). */
const LOG_PLACEHOLDER = "\u0000repro_log\u0000";

/**
 * PaperBench's `*_executed_metadata.json`: its own keys, in its order, then the studio's additions
 * (exit code, runner, GPUs, backend, attempt) after them, so PaperBench's readers find what they
 * expect and nothing is lost. Answered as the text before and after `repro_log`'s string content,
 * so the log (up to the runner's cap) goes between them piece by piece, each through
 * `jsonStringContent`, and is never one string in memory.
 */
export function executedMetadataFrame(metadata: ReproductionMetadata): { head: string; tail: string } {
  const ordered: Record<string, unknown> = {};
  for (const key of PAPERBENCH_METADATA_KEYS) ordered[key] = key === "repro_log" ? LOG_PLACEHOLDER : metadata[key];
  for (const [key, value] of Object.entries(metadata)) if (!(key in ordered)) ordered[key] = value;
  const [head, tail] = JSON.stringify(ordered, null, 4).split(jsonStringContent(LOG_PLACEHOLDER));
  return { head, tail };
}

/** A piece of a JSON string's content: `text` escaped, without the quotes. */
export function jsonStringContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The whole file at once (a short log). */
export function executedMetadataJson(metadata: ReproductionMetadata, reproLog: string): string {
  const { head, tail } = executedMetadataFrame(metadata);
  return head + jsonStringContent(reproLog) + tail;
}
