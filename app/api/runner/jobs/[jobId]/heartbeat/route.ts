import { heartbeatRequestSchema } from "@/lib/runner/protocol";
import { authenticateJobToken, heartbeatJob } from "@/server/runners/job-lease";
import { parseJsonBody } from "@/server/http/body";
import { runnerRoute } from "@/server/http/runner-route";

export const POST = runnerRoute<{ jobId: string }>(async ({ req, params, store }) => {
  const lease = await authenticateJobToken(store, req, params.jobId);
  const { leaseId } = await parseJsonBody(req, heartbeatRequestSchema);
  return heartbeatJob(store, lease, leaseId);
});
