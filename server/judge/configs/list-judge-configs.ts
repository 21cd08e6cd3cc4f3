import "server-only";
import type { Store } from "@/db/client";
import { getJudgeConfigById, listJudgeConfigs as listRows } from "@/db/queries/judge-configs";
import type { JudgeConfig } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { JudgeConfigView } from "@/lib/judge/views";
import { isUuid } from "@/lib/uuid";
import { toJudgeConfigView } from "./judge-config-view";

/** The configurations staff pick from (archived ones only when asked: `/judge` shows them apart). */
export async function listJudgeConfigs(
  store: Store,
  opts: { includeArchived?: boolean } = {},
): Promise<JudgeConfigView[]> {
  return (await listRows(store.db, { includeArchived: opts.includeArchived ?? false })).map((row) =>
    toJudgeConfigView(row),
  );
}

/** A configuration by id; 404 when there is none. */
export async function requireJudgeConfig(store: Store, configId: string): Promise<JudgeConfig> {
  const row = isUuid(configId) ? await getJudgeConfigById(store.db, configId) : null;
  if (!row) throw new AppError("not_found", "No such judge configuration");
  return row;
}
