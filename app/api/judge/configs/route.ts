import { judgeConfigCreateSchema } from "@/lib/judge/schemas";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { listJudgeConfigs } from "@/server/judge/configs/list-judge-configs";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";

/** Judge configurations (staff): `?archived=1` lists archived ones too. */
export const GET = apiRoute({ staff: true }, async ({ req, store }) => {
  const includeArchived = new URL(req.url).searchParams.get("archived") === "1";
  return { configs: await listJudgeConfigs(store, { includeArchived }) };
});

export const POST = apiRoute({ staff: true }, async ({ req, store, user }) => {
  const body = await parseJsonBody(req, judgeConfigCreateSchema);
  return { config: await createJudgeConfig(store, body, user.id) };
});
