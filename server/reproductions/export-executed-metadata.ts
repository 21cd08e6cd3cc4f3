import "server-only";
import type { Store } from "@/db/client";
import { listLogChunksAfter } from "@/db/queries/jobs";
import type { Job } from "@/db/schema";
import { executedMetadataFrame, jsonStringContent } from "@/lib/jobs/executed-metadata";
import { EXECUTED_SUBMISSION_FILE } from "./export-executed-submission";
import { storedMetadataOf } from "@/server/jobs/read-job";

/** Log chunks per read: at most 16 × 1 MiB in memory at once, whatever the log's length. */
const CHUNKS_PER_READ = 16;

/**
 * PaperBench's `submission_executed_metadata.json` of a finished reproduction, streamed: the
 * runner's metadata with `repro_log` filled from the log chunks of the attempt it describes (the
 * completion carries no log), so a log of any length goes out without being one string. Null when
 * the job has no metadata (yet).
 */
export function executedMetadataStream(store: Store, job: Job): ReadableStream<Uint8Array> | null {
  const metadata = storedMetadataOf(job);
  if (!metadata) return null;
  const { head, tail } = executedMetadataFrame(metadata, job.outputsSha256 ? EXECUTED_SUBMISSION_FILE : null);
  const encoder = new TextEncoder();
  let cursor: { attempt: number; seq: number } | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (cursor === null) {
        cursor = { attempt: metadata.attempt, seq: -1 };
        controller.enqueue(encoder.encode(head));
        return;
      }
      const chunks = (await listLogChunksAfter(store.db, job.id, cursor, CHUNKS_PER_READ)).filter(
        (c) => c.attempt === metadata.attempt,
      );
      if (chunks.length > 0) {
        cursor = { attempt: metadata.attempt, seq: chunks.at(-1)!.seq };
        controller.enqueue(encoder.encode(chunks.map((c) => jsonStringContent(c.text)).join("")));
      }
      if (chunks.length < CHUNKS_PER_READ) {
        controller.enqueue(encoder.encode(tail));
        controller.close();
      }
    },
  });
}
