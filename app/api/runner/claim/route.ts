import { claimRequestSchema } from "@/lib/runner/protocol";
import { claimReproduceJob } from "@/server/reproductions/claim-reproduce-job";
import { parseJsonBody } from "@/server/http/body";
import { runnerRoute } from "@/server/http/runner-route";
import { authenticateRunnerToken } from "@/server/runners/runner-tokens";

/** Long poll: 200 with a job, or 204 when none came within `waitS`. */
export const POST = runnerRoute(async ({ req, signal, store }) => {
  const token = await authenticateRunnerToken(store, req);
  return claimReproduceJob(store, token, await parseJsonBody(req, claimRequestSchema), signal);
});
