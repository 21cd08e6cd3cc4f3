import { getEventListeners } from "node:events";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { CallUsage, LeafVerdict } from "@/lib/judge/engine-contract";
import { estimateRun, gradeSubmission } from "@/lib/judge/engine/grade-submission";
import { NO_RESULTS_EXPLANATION } from "@/lib/judge/engine/leaf-grader";
import { judgedTree, planLeaves } from "@/lib/judge/engine/rubric-plan";
import { verdictsUsage } from "@/lib/judge/engine/usage";
import {
  promptTokensUncached,
  startOpenAiTestServer,
  tagged,
  type OpenAiTestServer,
  type TestServerScript,
} from "@/test/openai-test-server";
import { PAPERBENCH_SRC_DIR, skipWithoutPaperbenchPython } from "@/test/paperbench/python";
import { demoJudgeInput, demoSubmissionCopy } from "./judge-fixtures.testutil";
import { loadPaperbenchPrompts } from "./paperbench-prompts";
import { createOpenAiChatModel } from "./openai-chat-model";

let server: OpenAiTestServer | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function setup(
  script: TestServerScript = {},
  modelOpts: { supportsJsonSchema?: boolean; maxRetries?: number; timeoutMs?: number } = {},
) {
  server = await startOpenAiTestServer(script);
  const model = createOpenAiChatModel({
    baseUrl: server.baseUrl,
    apiKey: "test",
    backoffBaseMs: 5,
    maxBackoffMs: 20,
    ...modelOpts,
  });
  return { server, model };
}

function submission(options?: Parameters<typeof demoSubmissionCopy>[0]) {
  const dir = demoSubmissionCopy(options);
  dirs.push(dir);
  return dir;
}

/** Criteria that mention "stress test" fail; everything else passes. */
const byCriterion: TestServerScript["verdict"] = (req) => ({
  score: /stress test/.test(tagged(req, "criterion") ?? "") ? 0 : 1,
});

const demoLeaves = planLeaves(judgedTree(demoJudgeInput(".").rubric, false), null);
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
    expect(
      server.requests.every(
        (r) => r.kind === "verdict" && r.promptCacheKey === "test-submission" && r.reasoningEffort === "high",
      ),
    ).toBe(true);
    expect(verdictsUsage(verdicts)).toEqual(server.totals());
    // The server's per-message cache of encodeChat assembles the same count as encodeChat whole.
    for (const r of server.requests.slice(0, 3))
      expect(r.usage!.prompt).toBe(promptTokensUncached(r.model, r.messages));
    expect(server.totals()["o3-mini"].cached_in).toBeGreaterThan(0);
    expect(server.totals()["o3-mini"].reasoning_out).toBe(37 * demoLeaves.length);
    expect(tree.score).toBeGreaterThan(0.5);
    expect(tree.score).toBeLessThan(1);
  });

  it.skipIf(skipWithoutPaperbenchPython)(
    "paperbench mode: SimpleJudge's ranking, grading and parse call per leaf (parse with the parse model and its response format), totals equal",
    async () => {
      const { server, model } = await setup({ verdict: byCriterion });
      const prompts = await loadPaperbenchPrompts(PAPERBENCH_SRC_DIR);
      const input = demoJudgeInput(submission(), { mode: "paperbench", paperbench: { prompts } });
      const { verdicts, paperbenchTree } = await gradeSubmission(input, model);
      expect(verdicts.every((v) => v.valid && typeof v.fullJudgeResponse === "string")).toBe(true);
      expect(server.requests).toHaveLength(3 * demoLeaves.length);
      expect(server.requests.filter((r) => r.messages[0].content === prompts.fileRankingPrompt)).toHaveLength(
        demoLeaves.length,
      );
      const parses = server.requests.filter((r) => r.jsonSchemaName === "ParsedJudgeResponseInt");
      expect(parses).toHaveLength(demoLeaves.length);
      expect(parses.every((r) => r.model === "gpt-4o-2024-08-06")).toBe(true);
      expect(verdictsUsage(verdicts)).toEqual(server.totals());
      expect(paperbenchTree?.sub_tasks.length).toBe(input.rubric.sub_tasks.length);
    },
  );

  it("paperbench mode without PaperBench's prompts refuses to start, saying why", async () => {
    const { model } = await setup();
    await expect(gradeSubmission(demoJudgeInput(submission(), { mode: "paperbench" }), model)).rejects.toThrow(
      /PaperBench's prompts/,
    );
  });
});

/** A seeded coin for fault injection, so a failing run can be replayed. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe("faults", () => {
  it("with 20% of requests failing (429 with retry-after, 500, malformed JSON) every leaf is still graded, every answered call counted", async () => {
    const coin = seeded(7);
    const faults = ["429", "500", "malformed"] as const;
    const { server, model } = await setup({
      verdict: byCriterion,
      fault: () => (coin() < 0.2 ? faults[Math.floor(coin() * 3)] : null),
    });
    const { verdicts } = await gradeSubmission(demoJudgeInput(submission()), model);
    expect(verdicts).toHaveLength(demoLeaves.length);
    expect(verdicts.filter((v) => !v.valid)).toEqual([]);
    const outcomes = server.requests.map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 429).length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o === 500).length).toBeGreaterThan(0);
    // Malformed answers are 200s with usage: asked again, and counted like any call.
    const calls = sumCalls(verdicts);
    expect(calls.length).toBe(outcomes.filter((o) => o === 200).length);
    expect(calls.reduce((n, c) => n + c.attempts, 0)).toBe(server.requests.length);
    expect(verdictsUsage(verdicts)).toEqual(server.totals());
  });

  it("a 429 waits what retry-after-ms asks", async () => {
    let first = true;
    const { server, model } = await setup({
      retryAfterMs: 300,
      fault: () => (first ? ((first = false), "429") : null),
    });
    const started = Date.now();
    await model.complete({ model: "o3-mini", messages: [{ role: "user", content: "hi" }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.requests.map((r) => r.outcome)).toEqual([429, 200]);
  });

  it("a leaf whose retries are spent is invalid with the error as its explanation; its parent says so; the others are graded", async () => {
    const target = demoLeaves[0];
    const { server, model } = await setup(
      {
        fault: (req) => (tagged(req, "criterion") === target.requirements ? "500" : null),
      },
      { maxRetries: 2 },
    );
    const { verdicts, tree } = await gradeSubmission(demoJudgeInput(submission()), model);
    const bad = verdicts.find((v) => v.key === target.key)!;
    expect(bad.valid).toBe(false);
    expect(bad.score).toBe(0);
    expect(bad.explanation).toMatch(/could not grade this criterion: 3 attempts failed; the last: 500/);
    expect(verdicts.filter((v) => !v.valid)).toHaveLength(1);
    expect(server.requests.filter((r) => r.outcome === 500)).toHaveLength(3);
    expect(tree.valid_score).toBe(true);
    expect(tree.explanation).toMatch(/1 of the \d+ criteria below could not be graded/);
  });

  it("an answer that does not parse is asked again once; twice malformed makes the leaf invalid", async () => {
    const target = demoLeaves[1];
    const { server, model } = await setup({
      fault: (req) => (tagged(req, "criterion") === target.requirements ? "malformed" : null),
    });
    const { verdicts } = await gradeSubmission(demoJudgeInput(submission()), model);
    const bad = verdicts.find((v) => v.key === target.key)!;
    expect(bad.valid).toBe(false);
    expect(bad.explanation).toMatch(/could not be read twice: the answer is not JSON/);
    expect(bad.calls).toHaveLength(2);
    expect(server.requests.filter((r) => tagged(r, "criterion") === target.requirements)).toHaveLength(2);
  });

  it("a hung request times out and is retried", async () => {
    let hung = false;
    const { server, model } = await setup({ fault: () => (hung ? null : ((hung = true), "hang")) }, { timeoutMs: 300 });
    const answer = await model.complete({ model: "o3-mini", messages: [{ role: "user", content: "hi" }] });
    expect(answer.usage.attempts).toBe(2);
    expect(server.requests.map((r) => r.outcome)).toEqual(["hang", 200]);
  });
});

describe("resume and cancel", () => {
  it("leaves in hooks.done are not asked again", async () => {
    const { server, model } = await setup();
    const done = new Set(demoLeaves.slice(0, 10).map((l) => l.key));
    const seen: string[] = [];
    const { verdicts } = await gradeSubmission(demoJudgeInput(submission()), model, {
      done,
      onVerdict: (v) => void seen.push(v.key),
    });
    expect(server.requests).toHaveLength(demoLeaves.length - 10);
    expect(verdicts.map((v) => v.key).sort()).toEqual(
      demoLeaves
        .slice(10)
        .map((l) => l.key)
        .sort(),
    );
    expect(seen.sort()).toEqual(verdicts.map((v) => v.key).sort());
  });

  it("an abort starts no new call", async () => {
    const controller = new AbortController();
    const { model } = await setup({ latencyMs: 100 });
    let startedAfterAbort = 0;
    let started = 0;
    const counting: typeof model = {
      supportsJsonSchema: true,
      complete: (req) => {
        started++;
        if (controller.signal.aborted) startedAfterAbort++;
        return model.complete(req);
      },
    };
    let got = 0;
    const { verdicts } = await gradeSubmission(demoJudgeInput(submission(), { maxConcurrency: 2 }), counting, {
      signal: controller.signal,
      onVerdict: () => {
        if (++got === 4) controller.abort();
      },
    });
    expect(startedAfterAbort).toBe(0);
    expect(started).toBeLessThanOrEqual(5);
    expect(verdicts.length).toBe(4);
  });
});

describe("storing verdicts", () => {
  it("a verdict being stored does not hold its call slot: the next leaf's call starts meanwhile", async () => {
    const { model } = await setup();
    let secondCallStarted!: () => void;
    const secondCall = new Promise<void>((resolve) => (secondCallStarted = resolve));
    let calls = 0;
    const counting: typeof model = {
      supportsJsonSchema: true,
      complete: (req) => {
        if (++calls === 2) secondCallStarted();
        return model.complete(req);
      },
    };
    const stored: string[] = [];
    const { verdicts } = await gradeSubmission(demoJudgeInput(submission(), { maxConcurrency: 1 }), counting, {
      // The first store finishes only once the second call is under way (with the slot held until
      // the store ends, it never would).
      onVerdict: async (v) => {
        if (stored.length === 0) await secondCall;
        stored.push(v.key);
      },
    });
    expect(calls).toBeGreaterThan(2);
    expect(stored.sort()).toEqual(verdicts.map((v) => v.key).sort());
  });

  it("a store that fails stops the run: no other leaf is asked, and the run fails with it", async () => {
    const { model } = await setup();
    let calls = 0;
    const counting: typeof model = { supportsJsonSchema: true, complete: (req) => (calls++, model.complete(req)) };
    const run = gradeSubmission(demoJudgeInput(submission(), { maxConcurrency: 1 }), counting, {
      onVerdict: async () => {
        throw new Error("the database is down");
      },
    });
    await expect(run).rejects.toThrow("the database is down");
    expect(demoLeaves.length).toBeGreaterThan(10);
    expect(calls).toBe(1);
  });
});

describe("what the judge reads", () => {
  it("when reproduction touched no file every Result Analysis leaf scores 0 without a call", async () => {
    const { server, model } = await setup();
    const { verdicts } = await gradeSubmission(demoJudgeInput(submission({ touched: false })), model);
    const ra = verdicts.filter((v) => resultAnalysisLeaves.some((l) => l.key === v.key));
    expect(ra).toHaveLength(resultAnalysisLeaves.length);
    expect(
      ra.every((v) => v.valid && v.score === 0 && v.explanation === NO_RESULTS_EXPLANATION && v.calls.length === 0),
    ).toBe(true);
    expect(server.requests).toHaveLength(demoLeaves.length - resultAnalysisLeaves.length);
  });

  it("Result Analysis reads docs and files written by reproduction; code is not among its files", async () => {
    const { server, model } = await setup();
    await gradeSubmission(demoJudgeInput(submission()), model);
    const ra = server.requests.find((r) =>
      resultAnalysisLeaves.some((l) => l.requirements === tagged(r, "criterion")),
    )!;
    const files = tagged(ra, "files")!;
    expect(files).toContain('<file path="results/table1.csv">');
    expect(files).toContain('<file path="README.md">');
    expect(files).not.toContain('<file path="wagc.py">');
    const cd = server.requests.find((r) => /category: Code Development/.test(r.messages.at(-2)!.content))!;
    expect(tagged(cd, "files")).toContain('<file path="wagc.py">');
    expect(tagged(cd, "files")).not.toContain('<file path="results/table1.csv">');
  });

  it("skips venv, .git, node_modules and __pycache__", async () => {
    const { server, model } = await setup();
    const extra = {
      "venv/lib/site.py": "x = 1\n",
      ".git/config.py": "x = 1\n",
      "node_modules/a/index.js": "1\n",
      "src/__pycache__/m.py": "1\n",
      "src/model.py": "KEEP = 1\n",
    };
    await gradeSubmission(demoJudgeInput(submission({ extra })), model);
    const prompt = server.requests[0].messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("src/model.py");
    for (const skipped of ["venv/", ".git/", "node_modules/", "__pycache__/"]) expect(prompt).not.toContain(skipped);
  });

  it("Code-Dev grades only Code Development leaves, without reproduce.sh or reproduce.log", async () => {
    const { server, model } = await setup();
    const { verdicts, tree } = await gradeSubmission(demoJudgeInput(submission(), { codeDev: true }), model);
    const codeDev = demoLeaves.filter((l) => l.fileCategory === "Code Development");
    expect(verdicts.map((v) => v.key).sort()).toEqual(codeDev.map((l) => l.key).sort());
    for (const r of server.requests) {
      const text = r.messages.map((m) => m.content).join("\n");
      expect(text).not.toContain("<reproduce.log>");
      expect(text).not.toContain("<reproduce.sh>");
    }
    expect(tree.score).toBe(1);
  });

  it("at the max depth a subtree is graded whole: its requirements and weights listed, a score in [0, 1]", async () => {
    const { server, model } = await setup({ verdict: () => ({ score: 0.625 }) });
    // PaperBench's max_depth: the root is depth 1, so 2 grades each top-level criterion whole.
    const input = demoJudgeInput(submission(), { maxDepth: 2 });
    const { verdicts, tree } = await gradeSubmission(input, model);
    const top = input.rubric.sub_tasks;
    expect(verdicts).toHaveLength(top.length);
    expect(verdicts.every((v) => v.subtree && v.score === 0.625)).toBe(true);
    expect(server.requests.every((r) => r.jsonSchemaName === "subtree_verdict")).toBe(true);
    const criterion = tagged(server.requests[0], "criterion")!;
    expect(criterion).toContain(`${top[0].requirements} (weight: ${top[0].weight})`);
    expect(criterion).toContain(`| ${top[0].sub_tasks[0].requirements} (weight: ${top[0].sub_tasks[0].weight})`);
    expect(server.requests[0].messages.some((m) => m.content.includes("<reproduce.log>"))).toBe(true);
    expect(tree.sub_tasks.every((n) => n.sub_tasks.length === 0 && n.score === 0.625)).toBe(true);
    expect(tree.score).toBeCloseTo(0.625, 12);
  });

  it("a long reproduce.log keeps its tail (final metrics) within a small window", async () => {
    const { server, model } = await setup();
    const noise = Array.from(
      { length: 20_000 },
      (_, i) => `step ${i} loss ${(Math.sin(i) + 2).toFixed(6)} lr 0.001`,
    ).join("\n");
    const log = `START OF LOG\n${noise}\nFINAL test accuracy 0.9321\n`;
    await gradeSubmission(demoJudgeInput(submission({ log }), { contextWindow: 32_000 }), model);
    const logText = server.requests.map((r) => tagged(r, "reproduce.log")).find((t) => t !== null)!;
    expect(logText).toContain("START OF LOG");
    expect(logText).toContain("FINAL test accuracy 0.9321");
    expect(logText).toMatch(/the log goes on past what PaperBench reads; its last lines/);
    // Code Development leaves are not shown the log (PaperBench does not show it to them).
    const cd = server.requests.find((r) => /category: Code Development/.test(r.messages.at(-2)!.content))!;
    expect(tagged(cd, "reproduce.log")).toBeNull();
  });

  it("files over the budget: efficient mode ranks, then fills the budget in the ranked order; paperbench ranks always", async () => {
    const big = Array.from({ length: 3000 }, (_, i) => `def f${i}(x):\n    return x * ${i}\n`).join("");
    const { server, model } = await setup({ rank: () => "wagc.py\nsrc/big.py\nREADME.md" });
    const input = demoJudgeInput(submission({ extra: { "src/big.py": big } }), {
      contextWindow: 20_000,
      codeDev: true,
    });
    const { verdicts } = await gradeSubmission(input, model);
    expect(verdicts.every((v) => v.valid)).toBe(true);
    const ranks = server.requests.filter((r) => r.kind === "rank");
    expect(ranks.length).toBe(verdicts.length);
    const grade = server.requests.find((r) => r.kind === "verdict")!;
    const files = tagged(grade, "files")!;
    expect(files.indexOf('path="wagc.py"')).toBeLessThan(files.indexOf('path="src/big.py"'));
    expect(files).toContain("(cut: the rest of this file did not fit)");
    expect(grade.usage!.prompt).toBeLessThanOrEqual(18_000);
    expect(verdictsUsage(verdicts)).toEqual(server.totals());
  });

  it("an endpoint without JSON-schema output gets a free-form grading call and a parse call", async () => {
    const { server, model } = await setup(
      { supportsJsonSchema: false, verdict: byCriterion },
      { supportsJsonSchema: false },
    );
    const { verdicts } = await gradeSubmission(demoJudgeInput(submission()), model);
    expect(verdicts.every((v) => v.valid)).toBe(true);
    expect(server.requests.every((r) => r.jsonSchemaName === null)).toBe(true);
    expect(server.requests.filter((r) => r.kind === "parse")).toHaveLength(demoLeaves.length);
    expect(server.requests.filter((r) => r.kind === "free-form")).toHaveLength(demoLeaves.length);
  });
});

describe("estimateRun", () => {
  it("efficient: input tokens within 5% of what the server counted (its own encodeChat), no call made", async () => {
    const { server, model } = await setup();
    const input = demoJudgeInput(submission(), { mode: "efficient" });
    const estimate = await estimateRun(input);
    expect(server.requests).toHaveLength(0);
    await gradeSubmission(input, model);
    const actual = Object.values(server.totals()).reduce((n, t) => n + t.in, 0);
    expect(Math.abs(estimate.inputTokens - actual) / actual).toBeLessThan(0.05);
    expect(estimate.calls).toBe(server.requests.length);
    const cached = Object.values(server.totals()).reduce((n, t) => n + t.cached_in, 0);
    // The estimate follows whole messages; the server caches any common 128-token blocks.
    expect(Math.abs(estimate.cachedInputTokens - cached) / Math.max(1, cached)).toBeLessThan(0.1);
  });

  it.skipIf(skipWithoutPaperbenchPython)(
    "paperbench: exactly SimpleJudge's calls (rank, grade, parse per leaf), no call made",
    async () => {
      const { server, model } = await setup();
      const prompts = await loadPaperbenchPrompts(PAPERBENCH_SRC_DIR);
      const input = demoJudgeInput(submission(), { mode: "paperbench", paperbench: { prompts } });
      const estimate = await estimateRun(input);
      expect(server.requests).toHaveLength(0);
      await gradeSubmission(input, model);
      expect(estimate.calls).toBe(server.requests.length);
      expect(estimate.calls).toBe(3 * demoLeaves.length);
      const actual = Object.values(server.totals()).reduce((n, t) => n + t.in, 0);
      // The ranked files are the model's choice: the estimate takes the ten largest the tree lists.
      expect(Math.abs(estimate.inputTokens - actual) / actual).toBeLessThan(0.25);
    },
  );
});

describe("a run's signal", () => {
  it("holds no listener of a call once the call has ended", async () => {
    const controller = new AbortController();
    const { model } = await setup();
    const { verdicts } = await gradeSubmission(demoJudgeInput(submission(), { maxConcurrency: 4 }), model, {
      signal: controller.signal,
    });
    expect(verdicts.length).toBeGreaterThan(10);
    // The openai client never removes the listener it adds to a call's signal: on the run's own
    // signal they piled up, one per call.
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
