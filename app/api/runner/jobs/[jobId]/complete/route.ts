import { completeRequestSchema } from "@/lib/runner/protocol";
import { authenticateJobToken, completeJob } from "@/server/runners/job-lease";
import { parseJsonBody } from "@/server/http/body";
import { runnerRoute } from "@/server/http/runner-route";

export const POST = runnerRoute<{ jobId: string }>(async ({ req, params, store }) => {
  const lease = await authenticateJobToken(store, req, params.jobId);
  const job = await completeJob(store, lease, await parseJsonBody(req, completeRequestSchema, 16 * 1024 * 1024));
  return { status: job.status };
});
