import type { JudgeConfigInput } from "@/lib/judge/config";

/**
 * The one builder of judge configurations for tests: a model judge (gpt-4o-mini, efficient mode, no
 * key, list prices 1 / 0.5 / 4 per million tokens, 4 calls at once) unless `fields` say otherwise.
 * A Dummy or Random judge (`kind`) gets its kind as its model and no prices. A test names what it is
 * about (`baseUrl` of its stand-in OpenAI server, `mode`, `maxConcurrency`) and nothing else.
 */
export function testJudgeConfig(fields: Partial<JudgeConfigInput> & Pick<JudgeConfigInput, "name">): JudgeConfigInput {
  const placeholder = fields.kind === "dummy" || fields.kind === "random";
  return {
    kind: "llm",
    model: placeholder ? fields.kind! : "gpt-4o-mini",
    baseUrl: null,
    apiKeyEnv: null,
    reasoningEffort: null,
    contextWindow: 128_000,
    maxConcurrency: 4,
    requestsPerMinute: null,
    tokensPerMinute: null,
    priceInputPerM: placeholder ? 0 : 1,
    priceCachedInputPerM: placeholder ? 0 : 0.5,
    priceOutputPerM: placeholder ? 0 : 4,
    mode: "efficient",
    parseModel: null,
    ...fields,
  };
}
