import { Readable } from "node:stream";
import { AppError } from "@/lib/errors";
import { authenticateJobToken, requireCurrentLease } from "@/server/runners/job-lease";
import { runnerRoute } from "@/server/http/runner-route";
import { readSubmissionArchiveRef } from "@/server/reproductions/submission-archive";
import { openBlob } from "@/server/blobs/store-blob";

/** The submission's archive as uploaded, streamed from the blob store to the job's runner. */
export const GET = runnerRoute<{ jobId: string }>(async ({ req, params, store }) => {
  const job = await requireCurrentLease(store, await authenticateJobToken(store, req, params.jobId));
  const archive = await readSubmissionArchiveRef(store, job);
  if (!archive) throw new AppError("not_found", "This job's submission has no stored archive");
  const body = Readable.toWeb(await openBlob(archive.sha256)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(archive.bytes),
      "x-archive-name": encodeURIComponent(archive.name),
    },
  });
});
