import type { RunSettings } from "@/lib/jobs/paper-settings";

/** What the studio answers: the settings and the secrets' names (their values never leave it). */
export type RunSettingsView = RunSettings & { secretNames: string[] };

export const runSettingsKey = (paperId: string) => ["run-settings", paperId];
