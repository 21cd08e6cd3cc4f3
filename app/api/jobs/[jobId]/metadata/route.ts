import { AppError } from "@/lib/errors";
import { executedMetadataJson } from "@/lib/jobs/executed-metadata";
import { requireJobAccess } from "@/server/access/job-access";
import { apiRoute } from "@/server/http/route";
import { readJobView } from "@/server/jobs/read-job";

/** PaperBench's `submission_executed_metadata.json` of a finished reproduction. */
export const GET = apiRoute<{ jobId: string }>({}, async ({ params, store, user }) => {
  const job = await requireJobAccess(store, user, params.jobId, "view");
  const { metadata } = await readJobView(store, job);
  if (!metadata) throw new AppError("not_found", "This job has no reproduction metadata (yet)");
  return new Response(executedMetadataJson(metadata), {
    headers: { "content-type": "application/json", "content-disposition": `attachment; filename="submission_executed_metadata.json"` },
  });
});
