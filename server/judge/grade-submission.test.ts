import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { CallUsage, LeafVerdict } from "@/lib/judge/engine-contract";
import { estimateRun, gradeSubmission } from "@/lib/judge/engine/grade-submission";
import { NO_RESULTS_EXPLANATION } from "@/lib/judge/engine/leaf-grader";
import { judgedTree, planLeaves } from "@/lib/judge/engine/rubric-plan";
import { verdictsUsage } from "@/lib/judge/engine/usage";
import { startOpenAiTestServer, tagged, type OpenAiTestServer, type TestServerScript } from "@/test/openai-test-server";
import { demoJudgeInput, demoSubmissionCopy } from "./judge-fixtures.testutil";
import { createOpenAiChatModel } from "./openai-chat-model";

let server: OpenAiTestServer | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function setup(script: TestServerScript = {}, modelOpts: { supportsJsonSchema?: boolean; maxRetries?: number; timeoutMs?: number } = {}) {
  server = await startOpenAiTestServer(script);
  const model = createOpenAiChatModel({ baseUrl: server.baseUrl, apiKey: "test", backoffBaseMs: 5, maxBackoffMs: 20, ...modelOpts });
  return { server, model };
}

function submission(options?: Parameters<typeof demoSubmissionCopy>[0]) {
  const dir = demoSubmissionCopy(options);
  dirs.push(dir);
  return dir;
}

/** Criteria that mention "stress test" fail; everything else passes. */
const byCriterion: TestServerScript["verdict"] = (req) => ({ score: /stress test/.test(tagged(req, "criterion") ?? "") ? 0 : 1 });

const demoLeaves = planLeaves(judgedTree(demoJudgeInput(".").rubric, false)!, null);
const resultAnalysisLeaves = demoLeaves.filter((l) => l.fileCategory === "Result Analysis");

function sumCalls(verdicts: LeafVerdict[]): CallUsage[] {
  return verdicts.flatMap((v) => v.calls);
}

describe("gradeSubmission against a Chat Completions server", () => {
  it("efficient mode: one structured call per leaf, cache key sent, the server's token totals equal the run's", async () => {
    const { server, model } = await setup({ verdict: byCriterion, reasoningTokens: 37 });
    const input = demoJudgeInput(submission());
    const { verdicts, tree } = await gradeSubmission(input, model);
    expect(verdicts).toHaveLength(demoLeaves.length);
    expect(verdicts.every((v) => v.valid)).toBe(true);
    for (const v of verdicts) {
      const leaf = demoLeaves.find((l) => l.key === v.key)!;
      expect(v.score, leaf.requirements).toBe(/stress test/.test(leaf.requirements) ? 0 : 1);
    }
    expect(server.requests).toHaveLength(demoLeaves.length);
    expect(server.requests.every((r) => r.kind === "verdict" && r.promptCacheKey === "test-submission" && r.reasoningEffort === "high")).toBe(true);
    expect(verdictsUsage(verdicts)).toEqual(server.totals());
    expect(server.totals()["o3-mini"].cached_in).toBeGreaterThan(0);
    expect(server.totals()["o3-mini"].reasoning_out).toBe(37 * demoLeaves.length);
    expect(tree.score).toBeGreaterThan(0.5);
    expect(tree.score).toBeLessThan(1);
  });

  it("paperbench mode: a ranking, a grading and a parse call per leaf (parse with the parse model), totals equal", async () => {
    const { server, model } = await setup({ verdict: byCriterion });
    const input = demoJudgeInput(submission(), { mode: "paperbench" });
    const { verdicts } = await gradeSubmission(input, model);
    expect(verdicts.every((v) => v.valid)).toBe(true);
    expect(server.requests).toHaveLength(3 * demoLeaves.length);
    const kinds = server.requests.map((r) => r.kind);
    expect(kinds.filter((k) => k === "rank")).toHaveLength(demoLeaves.length);
    expect(kinds.filter((k) => k === "free-form")).toHaveLength(demoLeaves.length);
    expect(server.requests.filter((r) => r.kind === "parse").every((r) => r.model === "gpt-4o-2024-08-06")).toBe(true);
    expect(verdictsUsage(verdicts)).toEqual(server.totals());
    for (const v of verdicts) {
      const leaf = demoLeaves.find((l) => l.key === v.key)!;
      expect(v.score).toBe(/stress test/.test(leaf.requirements) ? 0 : 1);
    }
  });
});
