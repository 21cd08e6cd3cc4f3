import { releaseRequestSchema } from "@/lib/runner/protocol";
import { authenticateJobToken, releaseJob } from "@/server/runners/job-lease";
import { parseJsonBody } from "@/server/http/body";
import { runnerRoute } from "@/server/http/runner-route";

/** A stopping runner hands its job back to the queue (no waiting out the lease). */
export const POST = runnerRoute<{ jobId: string }>(async ({ req, params, store }) => {
  const lease = await authenticateJobToken(store, req, params.jobId);
  const job = await releaseJob(store, lease, await parseJsonBody(req, releaseRequestSchema));
  return { status: job.status };
});
