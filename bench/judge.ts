/**
 * Judge figures (issue 13), against the Chat Completions test server (test/openai-test-server.ts,
 * 200 ms per answer; it answers a ranking with every file of the tree shown), pinn's rubric (1,963
 * leaves, PAPERBENCH_DATA_DIR) over the demo paper and the demo submission after a reproduction,
 * concurrency 50. Paperbench mode needs PaperBench's prompts (PAPERBENCH_SRC_DIR):
 *
 * - `judge_calls_per_leaf`: efficient mode's calls / graded leaves, goal ≤ 1.05;
 *   `judge_calls_per_leaf_paperbench`: paperbench mode's (PaperBench's own count, 3).
 * - `judge_uncached_input_ratio`: uncached input tokens (input − cached, as the server counted
 *   them), efficient / paperbench, one run each. Goal ≤ 0.5.
 * - `judge_overhead_ratio`: efficient mode's wall time / (calls × 200 ms / 50). Goal < 1.2.
 * - `judge_estimate_error_pct` (efficient) and `judge_estimate_error_pct_paperbench`: |estimated −
 *   actual| input tokens / actual, the actual as the server counted it with gpt-tokenizer's own
 *   chat encoder. Goal < 5 for both.
 */
import fs from "node:fs";
import path from "node:path";
import type { JudgeMode } from "@/lib/judge/config";
import { estimateRun, gradeSubmission } from "@/lib/judge/engine/grade-submission";
import { rubricToJudgeTree } from "@/lib/judge/engine/rubric-plan";
import { totalUsage } from "@/lib/judge/engine/usage";
import { PAPERBENCH_DATA_DIR } from "@/lib/rubric/paperbench-data.testutil";
import { demoJudgeInput, demoSubmissionCopy, readRubricFile } from "@/server/judge/judge-fixtures.testutil";
import { createOpenAiChatModel } from "@/server/judge/openai-chat-model";
import { loadPaperbenchPrompts } from "@/server/judge/paperbench-prompts";
import { report } from "./support/figures";
import { startModelServerProcess } from "./support/model-server-process";

const LATENCY_MS = 200;
const CONCURRENCY = 50;

async function run(mode: JudgeMode, dir: string) {
  const server = await startModelServerProcess(LATENCY_MS);
  try {
    const input = demoJudgeInput(dir, {
      rubric: rubricToJudgeTree(readRubricFile(path.join(PAPERBENCH_DATA_DIR, "papers/pinn/rubric.json"))),
      mode,
      maxConcurrency: CONCURRENCY,
      promptCacheKey: `bench-${mode}`,
      // Paperbench mode is SimpleJudge's port: its prompts come from PaperBench's source (PAPERBENCH_SRC_DIR).
      ...(mode === "paperbench" ? { paperbench: { prompts: await loadPaperbenchPrompts() } } : {}),
    });
    const estimate = await estimateRun(input, { latencyS: LATENCY_MS / 1000 });
    const model = createOpenAiChatModel({ baseUrl: server.baseUrl, apiKey: "bench", maxConcurrency: CONCURRENCY });
    const started = performance.now();
    const { verdicts } = await gradeSubmission(input, model);
    const seconds = (performance.now() - started) / 1000;
    const graded = verdicts.filter((v) => v.calls.length > 0).length;
    const stats = await server.stats();
    const t = totalUsage(stats.totals);
    return { seconds, graded, calls: stats.requests, uncached: t.in - t.cached_in, input: t.in, estimate };
  } finally {
    server.close();
  }
}

export async function judgeFigures(): Promise<void> {
  const dir = demoSubmissionCopy();
  try {
    const efficient = await run("efficient", dir);
    const paperbench = await run("paperbench", dir);
    const errorPct = (r: { estimate: { inputTokens: number }; input: number }) =>
      (Math.abs(r.estimate.inputTokens - r.input) / r.input) * 100;
    report("judge_calls_per_leaf", efficient.calls / efficient.graded, "calls", 3);
    report("judge_calls_per_leaf_paperbench", paperbench.calls / paperbench.graded, "calls", 3);
    console.log(`# judge leaves graded: efficient ${efficient.graded}, paperbench ${paperbench.graded}`);
    report("judge_uncached_input_ratio", efficient.uncached / paperbench.uncached, "ratio", 3);
    console.log(`# judge uncached input tokens: efficient ${efficient.uncached}, paperbench ${paperbench.uncached}`);
    const ideal = (efficient.calls * (LATENCY_MS / 1000)) / CONCURRENCY;
    report("judge_overhead_ratio", efficient.seconds / ideal, "ratio", 3);
    console.log(
      `# judge efficient wall ${efficient.seconds.toFixed(2)} s for ${efficient.calls} calls (ideal ${ideal.toFixed(2)} s); paperbench ${paperbench.seconds.toFixed(2)} s for ${paperbench.calls}`,
    );
    report("judge_estimate_error_pct", errorPct(efficient), "%", 2);
    report("judge_estimate_error_pct_paperbench", errorPct(paperbench), "%", 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
