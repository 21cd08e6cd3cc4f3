import { apiRoute } from "@/server/http/route";
import { cancelJudgeRun } from "@/server/judge/runs/cancel-judge-run";
import { requireJudgeRunAccess } from "@/server/judge/runs/read-judge-run";

export const POST = apiRoute<{ runId: string }>({}, async ({ params, store, user }) => {
  const run = await requireJudgeRunAccess(store, user, params.runId, "manage");
  return { run: await cancelJudgeRun(store, run, user.id) };
});
