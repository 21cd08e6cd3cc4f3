import { judgeRunRequestSchema } from "@/lib/judge/schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { estimateJudgeRuns } from "@/server/judge/runs/estimate-judge-runs";

/** What the runs `POST /api/judge/runs` would start are expected to take (staff); writes nothing, calls no model. */
export const POST = apiRoute({ staff: true }, async ({ req, store }) =>
  estimateJudgeRuns(store, await parseJsonBody(req, judgeRunRequestSchema)),
);
