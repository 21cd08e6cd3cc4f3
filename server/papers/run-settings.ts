import "server-only";
import { z } from "zod";
import type { Executor, Store } from "@/db/client";
import { getPaperRunSettings, upsertPaperRunSettings } from "@/db/queries/paper-run-settings";
import { listPaperSecretNames } from "@/db/queries/paper-secrets";
import { DEFAULT_RUN_SETTINGS, runSettingsSchema, type RunSettings } from "@/lib/jobs/paper-settings";

/** What members see of a paper's reproduction settings: the settings and the names of its secrets, never their values. */
export type PaperRunSettingsView = RunSettings & { secretNames: string[] };

/** The paper's settings, the defaults where staff set none; a job takes them when it is queued and claimed. */
export async function readRunSettings(db: Executor, paperId: string): Promise<RunSettings> {
  const row = await getPaperRunSettings(db, paperId);
  if (!row) return { ...DEFAULT_RUN_SETTINGS };
  const { timeoutS, gpus, network, salvageRetryBelowS, diskLimitMiB, memoryLimitMiB, processLimit } = row;
  return { timeoutS, gpus, network, salvageRetryBelowS, diskLimitMiB, memoryLimitMiB, processLimit };
}

/** The settings with the names of the paper's secrets, as the paper page shows them. */
export async function getRunSettings(db: Executor, paperId: string): Promise<PaperRunSettingsView> {
  const [settings, secretNames] = await Promise.all([readRunSettings(db, paperId), listPaperSecretNames(db, paperId)]);
  return { ...settings, secretNames };
}

/** Replaces the paper's settings (all at once; limits left out take the defaults); bad ones are a ZodError naming the field (a 400). Jobs already queued keep theirs. */
export async function updateRunSettings(
  store: Store,
  input: { paperId: string; settings: z.input<typeof runSettingsSchema>; userId: string | null },
): Promise<PaperRunSettingsView> {
  const settings = runSettingsSchema.parse(input.settings);
  await upsertPaperRunSettings(store.db, { paperId: input.paperId, settings, updatedBy: input.userId });
  return getRunSettings(store.db, input.paperId);
}
