import { judgeRunRequestSchema } from "@/lib/judge/schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { startJudgeRuns } from "@/server/judge/runs/start-judge-run";

/** Starts a judge run on each submission named (staff): a grading, a `judge` job and the run's row each. */
export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  const request = await parseJsonBody(req, judgeRunRequestSchema);
  return { runs: await startJudgeRuns(store, request, user.id) };
});
