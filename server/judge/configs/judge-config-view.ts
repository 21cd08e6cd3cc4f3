import "server-only";
import type { JudgeConfig } from "@/db/schema";
import type { JudgeConfigInput } from "@/lib/judge/config";
import { isJudgeConfigReady, type JudgeConfigView } from "@/lib/judge/views";

/** The configuration's own fields, as the form edits them and a run snapshots them. */
export function judgeConfigFields(row: JudgeConfig): JudgeConfigInput {
  return {
    name: row.name,
    kind: row.kind,
    model: row.model,
    baseUrl: row.baseUrl,
    apiKeyEnv: row.apiKeyEnv,
    reasoningEffort: row.reasoningEffort as JudgeConfigInput["reasoningEffort"],
    contextWindow: row.contextWindow,
    maxConcurrency: row.maxConcurrency,
    requestsPerMinute: row.requestsPerMinute,
    tokensPerMinute: row.tokensPerMinute,
    priceInputPerM: row.priceInputPerM,
    priceCachedInputPerM: row.priceCachedInputPerM,
    priceOutputPerM: row.priceOutputPerM,
    mode: row.mode,
    parseModel: row.parseModel,
  };
}

/** Whether the variable a configuration names is set here; never its value. */
export function apiKeyIsSet(apiKeyEnv: string | null, env: Record<string, string | undefined> = process.env): boolean | null {
  if (!apiKeyEnv) return null;
  return (env[apiKeyEnv] ?? "") !== "";
}

export function toJudgeConfigView(row: JudgeConfig, env: Record<string, string | undefined> = process.env): JudgeConfigView {
  const apiKeySet = row.kind === "llm" ? apiKeyIsSet(row.apiKeyEnv, env) : null;
  return {
    ...judgeConfigFields(row),
    id: row.id,
    isDefault: row.isDefault,
    isDemo: row.isDemo,
    archived: row.archivedAt !== null,
    apiKeySet,
    ready: row.archivedAt === null && isJudgeConfigReady(row.kind, apiKeySet),
  };
}
