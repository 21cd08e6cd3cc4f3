import "server-only";
import type { Store } from "@/db/client";
import { listJobsBySubmissionId } from "@/db/queries/jobs";
import type { Submission } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { enqueueReproduceJob } from "@/server/submissions/enqueue-reproduce";

/**
 * Queues a reproduction of a stored submission (the submission page's Reproduce): only a full run
 * whose repository is in the blob store, and not while one of its reproductions is still queued or
 * running (Retry and Cancel are for those).
 */
export async function reproduceSubmission(
  store: Store,
  submission: Submission,
  userId: string | null,
): Promise<{ jobId: string }> {
  if (submission.variant === "code-dev") {
    throw new AppError("bad_request", "A Code-Dev submission is never reproduced (PaperBench grades only its code)");
  }
  if (!submission.archiveSha256) {
    throw new AppError(
      "conflict",
      "This submission's repository was imported for review only; upload its archive to reproduce it",
    );
  }
  const open = (await listJobsBySubmissionId(store.db, submission.id)).find(
    (job) => job.kind === "reproduce" && !isFinalJobStatus(job.status),
  );
  if (open) throw new AppError("conflict", `A reproduction of this submission is already ${open.status}`);
  return enqueueReproduceJob(store, { submissionId: submission.id, paperId: submission.paperId, userId });
}
