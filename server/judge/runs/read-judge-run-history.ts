import "server-only";
import type { Store } from "@/db/client";
import { listFinishedJudgeRuns } from "@/db/queries/judge-runs";
import { judgeRunHistory, type JudgeConfigHistory } from "@/lib/judge/run-history";

/** How many of the latest finished runs the history charts: enough to see a trend, bounded to answer fast. */
export const JUDGE_HISTORY_RUNS = 1000;

/** `/judge`'s runs over time (staff, as the rest of `/judge`): per configuration, its finished runs' cost, tokens, latency and invalid leaves. */
export async function readJudgeRunHistory(store: Store): Promise<{ configs: JudgeConfigHistory[]; limit: number }> {
  return {
    configs: judgeRunHistory(await listFinishedJudgeRuns(store.db, JUDGE_HISTORY_RUNS)),
    limit: JUDGE_HISTORY_RUNS,
  };
}
