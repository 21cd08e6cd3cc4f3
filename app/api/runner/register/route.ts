import { registerRequestSchema } from "@/lib/runner/protocol";
import { parseJsonBody } from "@/server/http/body";
import { runnerRoute } from "@/server/http/runner-route";
import { registerRunner } from "@/server/runners/register-runner";
import { authenticateRunnerToken } from "@/server/runners/runner-tokens";

export const POST = runnerRoute(async ({ req, store }) => {
  const token = await authenticateRunnerToken(store, req);
  return registerRunner(store, token, await parseJsonBody(req, registerRequestSchema));
});
