import { requireJobAccess } from "@/server/access/job-access";
import { apiRoute } from "@/server/http/route";
import { readJobLogTail, readJobView } from "@/server/jobs/read-job";

/** A job with its attempts, outputs and metadata, and the tail of its log. */
export const GET = apiRoute<{ jobId: string }>({}, async ({ params, store, user }) => {
  const job = await requireJobAccess(store, user, params.jobId, "view");
  const [view, logTail] = await Promise.all([readJobView(store, job), readJobLogTail(store, job)]);
  return { job: view, logTail };
});
