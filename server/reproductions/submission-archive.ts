import "server-only";
import type { Store } from "@/db/client";
import { getBlobBySha256 } from "@/db/queries/blobs";
import { getSubmissionById } from "@/db/queries/submissions";
import type { Job } from "@/db/schema";

/** Where a job's submission archive is in the blob store, with its name and size. */
export async function readSubmissionArchiveRef(
  store: Store,
  job: Job,
): Promise<{ sha256: string; bytes: number; name: string } | null> {
  if (!job.submissionId) return null;
  const submission = await getSubmissionById(store.db, job.submissionId);
  if (!submission?.archiveSha256) return null;
  // The archive's own size is the blob's (`archive_bytes` counts the files it unpacks to).
  const blob = await getBlobBySha256(store.db, submission.archiveSha256);
  if (!blob) return null;
  return { sha256: blob.sha256, bytes: blob.bytes, name: submission.archiveName ?? "submission.tar.gz" };
}
