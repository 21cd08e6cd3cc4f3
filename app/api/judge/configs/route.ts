import { judgeConfigCreateSchema } from "@/lib/judge/schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { listJudgeConfigs } from "@/server/judge/configs/list-judge-configs";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { paperbenchModeAvailability } from "@/server/judge/paperbench-prompts";

/**
 * Judge configurations (staff): `?archived=1` lists archived ones too. `paperbenchMode` says
 * whether paperbench mode can run here (PaperBench's prompts readable) and, if not, why.
 */
export const GET = apiRoute({ staff: true }, async ({ req, store }) => {
  const includeArchived = new URL(req.url).searchParams.get("archived") === "1";
  const availability = await paperbenchModeAvailability();
  return {
    configs: await listJudgeConfigs(store, { includeArchived }),
    paperbenchMode: availability.ok
      ? { available: true, commit: availability.commit, reason: null }
      : { available: false, commit: null, reason: availability.reason },
  };
});

export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  const body = await parseJsonBody(req, judgeConfigCreateSchema);
  return { config: await createJudgeConfig(store, body, user.id) };
});
