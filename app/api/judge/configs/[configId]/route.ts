import { judgeConfigPatchSchema } from "@/lib/judge/schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { archiveJudgeConfig, setDefaultJudgeConfig } from "@/server/judge/configs/archive-judge-config";
import { requireJudgeConfig } from "@/server/judge/configs/list-judge-configs";
import { updateJudgeConfig } from "@/server/judge/configs/save-judge-config";

/** Changes fields of a configuration, or (`isDefault: true`) makes it the default. */
export const PATCH = apiRoute<{ configId: string }>({ staff: true }, async ({ req, params, store }) => {
  const { isDefault, ...fields } = await parseJsonBody(req, judgeConfigPatchSchema);
  await requireJudgeConfig(store, params.configId);
  let config = Object.keys(fields).length > 0 ? await updateJudgeConfig(store, params.configId, fields) : null;
  if (isDefault) config = await setDefaultJudgeConfig(store, params.configId);
  return { config: config ?? (await updateJudgeConfig(store, params.configId, {})) };
});

/** Archives a configuration (its runs keep their snapshot). */
export const DELETE = apiRoute<{ configId: string }>({ staff: true }, async ({ params, store }) => ({
  config: await archiveJudgeConfig(store, params.configId),
}));
