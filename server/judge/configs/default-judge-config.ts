import "server-only";
import type { Executor } from "@/db/client";
import { listJudgeConfigs } from "@/db/queries/judge-configs";
import { chooseDefaultJudge } from "@/lib/judge/default-judge-choice";
import { toJudgeConfigView } from "./judge-config-view";

/**
 * The judge an evaluation grades with when none was named (`chooseDefaultJudge`, the evaluation
 * dialog's preselection): at creation, and when judging starts for one created before any
 * configuration existed. Null: no configuration at all.
 */
export async function defaultJudgeConfigId(db: Executor): Promise<string | null> {
  return (
    chooseDefaultJudge((await listJudgeConfigs(db, { includeArchived: false })).map((row) => toJudgeConfigView(row)))
      ?.id ?? null
  );
}
