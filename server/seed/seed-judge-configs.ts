import "server-only";
import type { Executor } from "@/db/client";
import { O3_MINI_CONFIG, type JudgeConfigInput } from "@/lib/judge/config";
import { createJudgeConfig } from "@/server/judge/configs/save-judge-config";
import { needsPaperbenchPrompts, paperbenchModeProblem } from "@/server/judge/paperbench-mode";
import { paperbenchSrcDir } from "@/server/judge/paperbench-prompts";

const FREE = { priceInputPerM: 0, priceCachedInputPerM: 0, priceOutputPerM: 0 } as const;
const NO_ENDPOINT = {
  baseUrl: null,
  apiKeyEnv: null,
  reasoningEffort: null,
  requestsPerMinute: null,
  tokensPerMinute: null,
  parseModel: null,
} as const;

/**
 * The demo's judges: PaperBench's `dummy` (every leaf 1) and `random`, which need no key, so a
 * newcomer runs the whole flow on the demo submission (their scores are placeholders: members
 * see them marked, the public leaderboard never); and o3-mini (PaperBench's judge) on OpenAI at
 * its list prices, in efficient mode and in paperbench mode (the one a new evaluation preselects,
 * so its rows can be "PaperBench method"), ready once `OPENAI_API_KEY` is set where the judge runs.
 */
export const DEMO_JUDGE_CONFIGS: readonly JudgeConfigInput[] = [
  {
    name: "Dummy judge",
    kind: "dummy",
    model: "dummy",
    contextWindow: 200_000,
    maxConcurrency: 20,
    mode: "efficient",
    ...FREE,
    ...NO_ENDPOINT,
  },
  {
    name: "Random judge",
    kind: "random",
    model: "random",
    contextWindow: 200_000,
    maxConcurrency: 20,
    mode: "efficient",
    ...FREE,
    ...NO_ENDPOINT,
  },
  O3_MINI_CONFIG,
  { ...O3_MINI_CONFIG, name: "o3-mini · PaperBench mode", mode: "paperbench" },
];

/**
 * Seeds the demo's judge configurations, marked demo; o3-mini in paperbench mode is the default
 * when its key is set, else the dummy judge. Without PaperBench's prompts (a fresh clone with no
 * PAPERBENCH_SRC_DIR) paperbench mode is unavailable, so its configuration is left out rather than
 * failing the first start; o3-mini in efficient mode is then the default when the key is set.
 */
export async function seedJudgeConfigs(
  db: Executor,
  staffId: string | null,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const paperbench = (await paperbenchModeProblem(paperbenchSrcDir(env))) === null;
  const configs = DEMO_JUDGE_CONFIGS.filter((c) => paperbench || !needsPaperbenchPrompts(c));
  const defaultName = !env.OPENAI_API_KEY
    ? "Dummy judge"
    : paperbench
      ? "o3-mini · PaperBench mode"
      : O3_MINI_CONFIG.name;
  for (const config of configs) {
    await createJudgeConfig({ db }, { ...config, isDemo: true, isDefault: config.name === defaultName }, staffId);
  }
}
