import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { getRunSettings, updateRunSettings } from "@/server/papers/run-settings";
import { runSettingsSchema } from "@/lib/jobs/paper-settings";

type Params = { paperId: string };

// Members read the settings and the secrets' names (never their values); staff change them.
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper }) => ({
  settings: await getRunSettings(store.db, paper.id),
}));

export const PUT = apiRoute<Params>({ paper: "manage" }, async ({ req, store, paper, user }) => {
  const settings = await parseJsonBody(req, runSettingsSchema);
  return { settings: await updateRunSettings(store, { paperId: paper.id, settings, userId: user.id }) };
});
