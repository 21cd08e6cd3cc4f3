import { AppError } from "@/lib/errors";
import { requireJobAccess } from "@/server/access/job-access";
import { apiRoute } from "@/server/http/route";
import { executedMetadataStream } from "@/server/reproductions/export-executed-metadata";

/** PaperBench's `submission_executed_metadata.json` of a finished reproduction, `repro_log` filled from the stored log. */
export const GET = apiRoute<{ jobId: string }>({}, async ({ params, store, user }) => {
  const job = await requireJobAccess(store, user, params.jobId, "view");
  const body = executedMetadataStream(store, job);
  if (!body) throw new AppError("not_found", "This job has no reproduction metadata (yet)");
  return new Response(body, {
    headers: {
      "content-type": "application/json",
      "content-disposition": `attachment; filename="submission_executed_metadata.json"`,
    },
  });
});
