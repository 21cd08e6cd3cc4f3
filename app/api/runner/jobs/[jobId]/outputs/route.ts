import { authenticateJobToken } from "@/server/runners/job-lease";
import { storeJobOutputs } from "@/server/reproductions/store-job-outputs";
import { runnerRoute } from "@/server/http/runner-route";

/** The executed submission as one .tar.gz (files over the paper's limit left out by the runner). */
export const PUT = runnerRoute<{ jobId: string }>(async ({ req, params, store }) => {
  const lease = await authenticateJobToken(store, req, params.jobId);
  return storeJobOutputs(store, lease, req);
});
