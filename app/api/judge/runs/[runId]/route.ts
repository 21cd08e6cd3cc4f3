import { apiRoute } from "@/server/http/route";
import { requireJudgeRunAccess } from "@/server/judge/runs/read-judge-run";

/** A run's progress (staff, and its paper's members). */
export const GET = apiRoute<{ runId: string }>({}, async ({ params, store, user }) => ({
  run: await requireJudgeRunAccess(store, user, params.runId, "view"),
}));
