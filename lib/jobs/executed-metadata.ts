import { PAPERBENCH_METADATA_KEYS, type ReproductionMetadata } from "@/lib/runner/reproduction-metadata";

/**
 * PaperBench's `*_executed_metadata.json`: its own keys, in its order, then the studio's additions
 * (exit code, runner, GPUs, backend, attempt) after them, so PaperBench's readers find what they
 * expect and nothing is lost.
 */
export function executedMetadataJson(metadata: ReproductionMetadata): string {
  const ordered: Record<string, unknown> = {};
  for (const key of PAPERBENCH_METADATA_KEYS) ordered[key] = metadata[key];
  for (const [key, value] of Object.entries(metadata)) if (!(key in ordered)) ordered[key] = value;
  return JSON.stringify(ordered, null, 4);
}
