import "server-only";
import type { Store } from "@/db/client";
import { archiveJudgeConfig as archiveRow, setDefaultJudgeConfig as setDefaultRow } from "@/db/queries/judge-configs";
import { AppError } from "@/lib/errors";
import type { JudgeConfigView } from "@/lib/judge/views";
import { toJudgeConfigView } from "./judge-config-view";
import { requireJudgeConfig } from "./list-judge-configs";

/** Archives a configuration: no new run can use it; runs made with it keep their snapshot and stay readable. */
export async function archiveJudgeConfig(store: Store, configId: string): Promise<JudgeConfigView> {
  const current = await requireJudgeConfig(store, configId);
  const row = await archiveRow(store.db, current.id);
  if (!row) throw new AppError("not_found", "No such judge configuration");
  return toJudgeConfigView(row);
}

/** Makes a configuration the default (the start dialog preselects it); the previous default stops being it. */
export async function setDefaultJudgeConfig(store: Store, configId: string): Promise<JudgeConfigView> {
  const current = await requireJudgeConfig(store, configId);
  if (current.archivedAt) throw new AppError("conflict", "An archived judge configuration cannot be the default");
  await store.db.transaction((tx) => setDefaultRow(tx, current.id));
  return toJudgeConfigView({ ...current, isDefault: true });
}
