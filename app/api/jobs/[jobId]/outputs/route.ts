import { Readable } from "node:stream";
import { AppError } from "@/lib/errors";
import { requireJobAccess } from "@/server/access/job-access";
import { openBlob } from "@/server/blobs/store-blob";
import { apiRoute } from "@/server/http/route";

/** The executed submission as the runner uploaded it (.tar.gz). */
export const GET = apiRoute<{ jobId: string }>({}, async ({ params, store, user }) => {
  const job = await requireJobAccess(store, user, params.jobId, "view");
  if (!job.outputsSha256) throw new AppError("not_found", "This job has no outputs (yet)");
  const body = Readable.toWeb(await openBlob(job.outputsSha256)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: { "content-type": "application/gzip", "content-disposition": `attachment; filename="outputs-${job.id}.tar.gz"` },
  });
});
