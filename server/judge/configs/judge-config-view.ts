import "server-only";
import type { JudgeConfig } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { judgeKeyEnvProblem, type JudgeConfigInput } from "@/lib/judge/config";
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

/**
 * Whether the variable a configuration names is set here; never its value. A name outside the
 * judge-key rule (a configuration stored before it, naming AUTH_SECRET) answers false without a
 * look, so the answer cannot map the server's environment.
 */
export function apiKeyIsSet(
  apiKeyEnv: string | null,
  env: Record<string, string | undefined> = process.env,
): boolean | null {
  if (!apiKeyEnv) return null;
  if (judgeKeyEnvProblem(apiKeyEnv)) return false;
  return (env[apiKeyEnv] ?? "") !== "";
}

/**
 * Refuses (409) a model configuration whose key cannot be read here: a variable outside the
 * judge-key rule, or one that is not set. Checked before a run, a lab or a regrade is queued.
 */
export function assertJudgeKeyReady(
  config: Pick<JudgeConfigInput, "name" | "kind" | "apiKeyEnv">,
  path: string,
  env: Record<string, string | undefined> = process.env,
): void {
  if (config.kind !== "llm" || !config.apiKeyEnv) return;
  const problem = judgeKeyEnvProblem(config.apiKeyEnv);
  if (problem) {
    throw new AppError(
      "conflict",
      `The judge configuration "${config.name}" names ${config.apiKeyEnv} for its API key, which it may not: the variable ${problem}; edit the configuration`,
      [{ path, message: `${config.apiKeyEnv} is not a judge key variable` }],
    );
  }
  if (!apiKeyIsSet(config.apiKeyEnv, env)) {
    throw new AppError(
      "conflict",
      `The judge configuration "${config.name}" reads its API key from ${config.apiKeyEnv}, which is not set on this server`,
      [{ path, message: `${config.apiKeyEnv} is not set` }],
    );
  }
}

export function toJudgeConfigView(
  row: JudgeConfig,
  env: Record<string, string | undefined> = process.env,
): JudgeConfigView {
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
