import "server-only";
import type { Store } from "@/db/client";
import { getSubmissionById } from "@/db/queries/submissions";
import type { Job } from "@/db/schema";

/** Where a job's submission archive is in the blob store, with its name and size. */
export async function readSubmissionArchiveRef(store: Store, job: Job): Promise<{ sha256: string; bytes: number; name: string } | null> {
  if (!job.submissionId) return null;
  const submission = await getSubmissionById(store.db, job.submissionId);
  if (!submission?.archiveSha256) return null;
  return { sha256: submission.archiveSha256, bytes: submission.archiveBytes, name: submission.archiveName ?? "submission.tar.gz" };
}
