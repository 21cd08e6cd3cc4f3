import { requireJobAccess } from "@/server/access/job-access";
import { apiRoute } from "@/server/http/route";
import { cancelJob } from "@/server/jobs/cancel-job";

export const POST = apiRoute<{ jobId: string }>({}, async ({ params, store, user }) => {
  const job = await cancelJob(store, await requireJobAccess(store, user, params.jobId, "manage"), user.id);
  return { status: job.status, cancelRequested: job.cancelRequestedAt !== null };
});
