import { z } from "zod";
import { text } from "@/lib/text";

/**
 * A judge configuration (staff, `/judge`): which model grades, where, how fast and at what price.
 * `llm` talks to any OpenAI-compatible Chat Completions endpoint; `dummy` (every leaf 1) and
 * `random` are PaperBench's judges for demos and tests. The API key is never stored: only the
 * *name* of the environment variable that holds it on the machine running the judge.
 */
export const JUDGE_KINDS = ["llm", "dummy", "random"] as const;
export type JudgeKind = (typeof JUDGE_KINDS)[number];

/**
 * `efficient`: one structured call per leaf, cache-friendly message order, no ranking call when
 * everything fits. `paperbench`: SimpleJudge's flow call for call (ranking, grading, parse), for
 * comparability with published figures.
 */
export const JUDGE_MODES = ["efficient", "paperbench"] as const;
export type JudgeMode = (typeof JUDGE_MODES)[number];

export const REASONING_EFFORTS = ["low", "medium", "high"] as const;

/**
 * The variables a configuration may read its key from. The worker (and the studio, for the judge
 * lab's calibration call) sends that variable's value as the bearer key to the configuration's
 * base URL, so a free choice would hand AUTH_SECRET or DATABASE_URL to any server staff typed in,
 * and "is it set?" would map the server's environment. Only names made for judge keys are read.
 */
export const JUDGE_KEY_ENV_PREFIX = "JUDGE_KEY_";
export const JUDGE_KEY_ENV_NAMES = ["OPENAI_API_KEY"] as const;

/** Why `name` may not hold a judge's key, or null when it may. */
export function judgeKeyEnvProblem(name: string): string | null {
  if (!/^[A-Z_][A-Z0-9_]{0,63}$/.test(name))
    return "must be an environment variable's name (capital letters, digits, _), never the key itself";
  if ((JUDGE_KEY_ENV_NAMES as readonly string[]).includes(name)) return null;
  if (name.startsWith(JUDGE_KEY_ENV_PREFIX) && name.length > JUDGE_KEY_ENV_PREFIX.length) return null;
  return `must be ${JUDGE_KEY_ENV_NAMES.join(", ")} or start with ${JUDGE_KEY_ENV_PREFIX} (${JUDGE_KEY_ENV_PREFIX}AZURE…): the judge reads no other variable of the server`;
}

/** Why `url` may not be a judge's base URL, or null when it may: an http(s) address only (not file:, javascript:, data:). */
export function judgeBaseUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an http(s) URL of an OpenAI-compatible API";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return "must be an http(s) URL of an OpenAI-compatible API";
  return null;
}

const envName = z.string().superRefine((name, ctx) => {
  const problem = judgeKeyEnvProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const baseUrl = text()
  .trim()
  .max(2000, "must be at most 2000 characters")
  .superRefine((url, ctx) => {
    const problem = judgeBaseUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const price = z.number().min(0, "must be at least 0").max(10_000, "must be at most 10000");

export const judgeConfigInputSchema = z.object({
  name: text().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  kind: z.enum(JUDGE_KINDS, { error: `must be one of ${JUDGE_KINDS.join(", ")}` }),
  model: text().trim().min(1, "is required").max(200, "must be at most 200 characters"),
  baseUrl: baseUrl.nullable(),
  apiKeyEnv: envName.nullable(),
  reasoningEffort: z.enum(REASONING_EFFORTS).nullable(),
  /** Tokens the model reads at most; the prompt budget is derived from it. */
  contextWindow: z.number().int().min(1_000, "must be at least 1000 tokens").max(10_000_000),
  maxConcurrency: z.number().int().min(1).max(1_000),
  requestsPerMinute: z.number().int().min(1).max(1_000_000).nullable(),
  tokensPerMinute: z.number().int().min(1).max(1_000_000_000).nullable(),
  /** US dollars per million tokens. */
  priceInputPerM: price,
  priceCachedInputPerM: price,
  priceOutputPerM: price,
  mode: z.enum(JUDGE_MODES),
  /** PaperBench's parse model (gpt-4o-2024-08-06); also the fallback for endpoints without JSON-schema output. */
  parseModel: text().trim().max(200).nullable(),
});
export type JudgeConfigInput = z.infer<typeof judgeConfigInputSchema>;

/**
 * PaperBench's judge, o3-mini (high reasoning) with its gpt-4o parse model, on OpenAI at its list
 * prices: the demo's ready-made configuration and the new-configuration form's starting point.
 */
export const O3_MINI_CONFIG: JudgeConfigInput = {
  name: "o3-mini",
  kind: "llm",
  model: "o3-mini",
  baseUrl: null,
  apiKeyEnv: "OPENAI_API_KEY",
  reasoningEffort: "high",
  contextWindow: 200_000,
  maxConcurrency: 20,
  requestsPerMinute: null,
  tokensPerMinute: null,
  priceInputPerM: 1.1,
  priceCachedInputPerM: 0.55,
  priceOutputPerM: 4.4,
  mode: "efficient",
  parseModel: "gpt-4o-2024-08-06",
};
