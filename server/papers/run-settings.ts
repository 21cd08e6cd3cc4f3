import "server-only";
import { z } from "zod";
import type { Executor, Store } from "@/db/client";
import { getPaperRunSettings, upsertPaperRunSettings } from "@/db/queries/paper-run-settings";
import { listPaperSecretNames } from "@/db/queries/paper-secrets";
import { DEFAULT_RUN_SETTINGS, runSettingsSchema, type RunSettings } from "@/lib/jobs/paper-settings";

/** What members see of a paper's reproduction settings: the settings and the names of its secrets, never their values. */
export type PaperRunSettingsView = RunSettings & { secretNames: string[] };

/** The paper's settings, the defaults where staff set none; a job takes them when it is queued. */
export async function getRunSettings(db: Executor, paperId: string): Promise<PaperRunSettingsView> {
  const [row, secretNames] = await Promise.all([getPaperRunSettings(db, paperId), listPaperSecretNames(db, paperId)]);
  const settings: RunSettings = row
    ? { timeoutS: row.timeoutS, gpus: row.gpus, network: row.network, salvageRetryBelowS: row.salvageRetryBelowS }
    : { ...DEFAULT_RUN_SETTINGS };
  return { ...settings, secretNames };
}

/** Replaces the paper's settings (all four at once); bad ones are a ZodError naming the field (a 400). Jobs already queued keep theirs. */
export async function updateRunSettings(
  store: Store,
  input: { paperId: string; settings: z.input<typeof runSettingsSchema>; userId: string | null },
): Promise<PaperRunSettingsView> {
  const settings = runSettingsSchema.parse(input.settings);
  await upsertPaperRunSettings(store.db, { paperId: input.paperId, settings, updatedBy: input.userId });
  return getRunSettings(store.db, input.paperId);
}
