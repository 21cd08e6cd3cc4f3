import { requireJobAccess } from "@/server/access/job-access";
import { apiRoute } from "@/server/http/route";
import { retryJob } from "@/server/evaluations/pipeline/retry-job";

export const POST = apiRoute<{ jobId: string }>({}, async ({ params, store, user }) => {
  return retryJob(store, await requireJobAccess(store, user, params.jobId, "manage"), user.id);
});
