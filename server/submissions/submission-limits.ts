import "server-only";
import { readServerEnv, type ServerEnv } from "@/lib/env";
import { ARCHIVE_LIMITS, type ArchiveLimits } from "./archive";

const GIB = 1024 * 1024 * 1024;

/**
 * The limits of an uploaded submission, which is going to be run: repositories of real size (2 GiB
 * compressed, 2 GiB expanded, 100,000 files by default; SUBMISSION_MAX_ARCHIVE_BYTES,
 * SUBMISSION_MAX_EXPANDED_BYTES, SUBMISSION_MAX_FILES). What is kept for the review page's file
 * browser stays within the import's limits.
 */
export function submissionLimits(env: ServerEnv = readServerEnv()): ArchiveLimits {
  return {
    ...ARCHIVE_LIMITS,
    maxArchiveBytes: env.SUBMISSION_MAX_ARCHIVE_BYTES ?? 2 * GIB,
    maxExpandedBytes: env.SUBMISSION_MAX_EXPANDED_BYTES ?? 2 * GIB,
    maxEntries: env.SUBMISSION_MAX_FILES ?? 100_000,
  };
}
