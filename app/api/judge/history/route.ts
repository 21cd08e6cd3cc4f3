import { apiRoute } from "@/server/http/route";
import { readJudgeRunHistory } from "@/server/judge/runs/read-judge-run-history";

/** Judge runs over time per configuration (staff, like the configurations): cost, tokens, latency, invalid-leaf rate. */
export const GET = apiRoute({ staff: true }, async ({ store }) => readJudgeRunHistory(store));
