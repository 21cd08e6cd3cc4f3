import { runnerTokenRequestSchema } from "@/lib/runner/runner-token-schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { createRunnerToken, listRunnerTokensForStaff } from "@/server/runners/runner-tokens";

export const GET = apiRoute({ staff: true }, async ({ store }) => ({ tokens: await listRunnerTokensForStaff(store) }));

/** A new runner token, shown once in the answer; only its hash is kept. */
export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  const { name } = await parseJsonBody(req, runnerTokenRequestSchema);
  return createRunnerToken(store, { name, createdBy: user.id });
});
