import { waitCancelRequestSchema } from "@/lib/runner/protocol";
import { authenticateJobToken, waitForJobCancel } from "@/server/runners/job-lease";
import { parseJsonBody } from "@/server/http/body";
import { runnerRoute } from "@/server/http/runner-route";

/** Long poll held by a job's runner for the whole run: `{ cancel: true }` the moment staff cancel it. */
export const POST = runnerRoute<{ jobId: string }>(async ({ req, signal, params, store }) => {
  const lease = await authenticateJobToken(store, req, params.jobId);
  return waitForJobCancel(store, lease, await parseJsonBody(req, waitCancelRequestSchema), signal);
});
