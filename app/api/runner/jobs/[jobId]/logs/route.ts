import { logsRequestSchema } from "@/lib/runner/protocol";
import { appendJobLogs, authenticateJobToken } from "@/server/runners/job-lease";
import { parseJsonBody } from "@/server/http/body";
import { runnerRoute } from "@/server/http/runner-route";

export const POST = runnerRoute<{ jobId: string }>(async ({ req, params, store }) => {
  const lease = await authenticateJobToken(store, req, params.jobId);
  return appendJobLogs(store, lease, await parseJsonBody(req, logsRequestSchema, 8 * 1024 * 1024));
});
