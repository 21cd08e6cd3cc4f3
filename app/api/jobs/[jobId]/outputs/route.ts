import { Readable } from "node:stream";
import { AppError } from "@/lib/errors";
import { requireJobAccess } from "@/server/access/job-access";
import { openBlob } from "@/server/blobs/store-blob";
import { apiRoute } from "@/server/http/route";
import { EXECUTED_SUBMISSION_FILE, executedSubmissionArchive } from "@/server/reproductions/export-executed-submission";

/**
 * The executed submission (.tar.gz): as the runner uploaded it, or (`?format=paperbench`) as
 * PaperBench stores one, under `submission/`, named `submission_executed.tar.gz`, the file its
 * `submission_executed_metadata.json` (the metadata export) names.
 */
export const GET = apiRoute<{ jobId: string }>({}, async ({ req, params, store, user }) => {
  const job = await requireJobAccess(store, user, params.jobId, "view");
  if (!job.outputsSha256) throw new AppError("not_found", "This job has no outputs (yet)");
  const format = new URL(req.url).searchParams.get("format");
  if (format !== null && format !== "paperbench")
    throw new AppError("bad_request", `format must be "paperbench" or left out, not "${format.slice(0, 40)}"`, [
      { path: "format", message: "must be paperbench" },
    ]);
  const blob = await openBlob(job.outputsSha256);
  const stream = format === "paperbench" ? executedSubmissionArchive(blob) : blob;
  const filename = format === "paperbench" ? EXECUTED_SUBMISSION_FILE : `outputs-${job.id}.tar.gz`;
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    headers: { "content-type": "application/gzip", "content-disposition": `attachment; filename="${filename}"` },
  });
});
