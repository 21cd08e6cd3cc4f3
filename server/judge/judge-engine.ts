import "server-only";
import type { Paper } from "@/db/schema";
import { judgeBaseUrlProblem, judgeKeyEnvProblem, type JudgeConfigInput } from "@/lib/judge/config";
import type { ChatModel, JudgeRubricNode, JudgeRunInput, SubmissionFiles } from "@/lib/judge/engine-contract";
import type { Variant } from "@/lib/grading/variant";
import { createOpenAiChatModel } from "./openai-chat-model";

import { gradeSubmission, gradeWithoutModel, type JudgeRunResult } from "@/lib/judge/engine/grade-submission";
import type { JudgeRunHooks } from "@/lib/judge/engine-contract";

export { estimateRun } from "@/lib/judge/engine/grade-submission";

/** What the engine is handed for one submission under one configuration. */
export function judgeRunInput(input: {
  rubric: JudgeRubricNode;
  paper: Pick<Paper, "paperMarkdown" | "addendum" | "judgeAddendum">;
  submission: SubmissionFiles;
  variant: Variant;
  maxDepth: number | null;
  config: JudgeConfigInput;
  submissionId: string;
  /** Paperbench mode's prompts, read at run start (server/judge/paperbench-mode.ts). */
  paperbench?: JudgeRunInput["paperbench"];
}): JudgeRunInput {
  const { config } = input;
  return {
    rubric: input.rubric,
    paper: {
      markdown: input.paper.paperMarkdown,
      addendum: input.paper.addendum,
      judgeAddendum: input.paper.judgeAddendum,
    },
    submission: input.submission,
    codeDev: input.variant === "code-dev",
    maxDepth: input.maxDepth,
    mode: config.mode,
    model: config.model,
    parseModel: config.parseModel,
    reasoningEffort: config.reasoningEffort,
    contextWindow: config.contextWindow,
    maxConcurrency: config.maxConcurrency,
    promptCacheKey: `rubric-studio:${input.submissionId}`,
    ...(input.paperbench ? { paperbench: input.paperbench } : {}),
  };
}

/**
 * Grades with a configuration: `dummy` and `random` without a model (PaperBench's, no calls);
 * `llm` through its OpenAI-compatible endpoint.
 */
export function gradeWithConfig(
  input: JudgeRunInput,
  config: JudgeConfigInput,
  hooks: JudgeRunHooks,
  env: Record<string, string | undefined> = process.env,
): Promise<JudgeRunResult> {
  if (config.kind !== "llm") return gradeWithoutModel(input, config.kind, Date.now(), hooks);
  return gradeSubmission(input, chatModelFor(config, env), hooks);
}

/**
 * The chat model a configuration grades with. The API key is read here, in the worker (and, for
 * calibration's one suggestion call, the studio), from the variable the configuration names: it
 * is never stored, logged or answered.
 */
export function chatModelFor(config: JudgeConfigInput, env: Record<string, string | undefined>): ChatModel {
  // The configuration schema holds these rules, but a configuration (or a run's snapshot of one)
  // stored before them could name AUTH_SECRET and any URL: checked again where the key is read.
  const keyProblem = config.apiKeyEnv ? judgeKeyEnvProblem(config.apiKeyEnv) : null;
  if (keyProblem)
    throw new Error(
      `the judge configuration "${config.name}" names ${config.apiKeyEnv} for its API key, which it may not: the variable ${keyProblem}`,
    );
  const urlProblem = config.baseUrl !== null ? judgeBaseUrlProblem(config.baseUrl) : null;
  if (urlProblem) throw new Error(`the judge configuration "${config.name}" has a base URL that ${urlProblem}`);
  const apiKey = config.apiKeyEnv ? env[config.apiKeyEnv] : undefined;
  if (config.apiKeyEnv && !apiKey) throw new Error(`${config.apiKeyEnv} is not set where the judge worker runs`);
  return createOpenAiChatModel({
    baseUrl: config.baseUrl,
    apiKey: apiKey ?? "none",
    maxConcurrency: config.maxConcurrency,
    requestsPerMinute: config.requestsPerMinute,
    tokensPerMinute: config.tokensPerMinute,
  });
}
