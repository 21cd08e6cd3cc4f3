import "server-only";
import type { Executor, Store } from "@/db/client";
import { insertJudgeConfig, setDefaultJudgeConfig, updateJudgeConfig as updateRow } from "@/db/queries/judge-configs";
import { isUniqueViolation } from "@/db/queries/rubric-operations";
import { AppError } from "@/lib/errors";
import { judgeConfigInputSchema, type JudgeConfigInput } from "@/lib/judge/config";
import type { JudgeConfigView } from "@/lib/judge/views";
import { judgeConfigFields, toJudgeConfigView } from "./judge-config-view";
import { requireJudgeConfig } from "./list-judge-configs";
import { needsPaperbenchPrompts, requirePaperbenchPrompts } from "../paperbench-mode";

function nameTaken(name: string): AppError {
  return new AppError("conflict", `A judge configuration named "${name}" exists already`, [
    { path: "name", message: "is taken" },
  ]);
}

/** Creates a configuration (staff); `isDefault` makes it the one the start dialog preselects. */
export async function createJudgeConfig(
  store: { db: Executor },
  input: JudgeConfigInput & { isDefault?: boolean; isDemo?: boolean },
  userId: string | null,
): Promise<JudgeConfigView> {
  const fields = judgeConfigInputSchema.parse(input);
  if (needsPaperbenchPrompts(fields)) await requirePaperbenchPrompts();
  try {
    const row = await store.db.transaction(async (tx) => {
      const created = await insertJudgeConfig(tx, { ...fields, isDemo: input.isDemo ?? false, createdBy: userId });
      if (input.isDefault) await setDefaultJudgeConfig(tx, created.id);
      return { ...created, isDefault: input.isDefault ?? false };
    });
    return toJudgeConfigView(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(fields.name);
    throw err;
  }
}

/**
 * Changes some fields of a configuration: the result is checked whole, as a new one would be.
 * Runs already started keep the configuration they snapshotted.
 */
export async function updateJudgeConfig(
  store: Store,
  configId: string,
  patch: Partial<JudgeConfigInput>,
): Promise<JudgeConfigView> {
  const current = await requireJudgeConfig(store, configId);
  if (current.archivedAt) throw new AppError("conflict", "This judge configuration is archived");
  const fields = judgeConfigInputSchema.parse({ ...judgeConfigFields(current), ...patch });
  if (needsPaperbenchPrompts(fields) && (patch.mode !== undefined || patch.kind !== undefined))
    await requirePaperbenchPrompts();
  try {
    const row = await updateRow(store.db, current.id, fields);
    if (!row) throw new AppError("not_found", "No such judge configuration");
    return toJudgeConfigView(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(fields.name);
    throw err;
  }
}
