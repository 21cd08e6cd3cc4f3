/**
 * The proof that paperbench mode is PaperBench's SimpleJudge: PaperBench's own judge code (Python,
 * from PAPERBENCH_SRC_DIR, with the stand-ins of test/paperbench/standins: a scripted recording
 * completer, tiktoken's o200k_base through the project's gpt-tokenizer, logging, types) and the
 * studio's paperbench mode (the real `openai` client through server/judge/openai-chat-model.ts over
 * HTTP to a local recording server) grade the same fixtures with the same scripted answers. Every
 * call of every leaf must carry byte-identical messages, the same model and the same
 * response_format, and the graded trees (`GradedTaskNode.to_dict()`, token usage included: both
 * sides report the script's usage) must be equal.
 *
 * Not identical in principle, so kept out of the fixtures:
 * - The blacklist (`venv`, `wandb`, …) is matched against the folder's path relative to the
 *   submission; PaperBench matches the absolute path's parts, so a submission stored under, say,
 *   `/data/venv-runs/` would lose every file there. The fixtures live under a neutral temp folder.
 * - A ranking answer naming a path with `..` is "not found" here; PaperBench would read outside
 *   the submission (or through a link out of it). Links leaving the submission are not followed.
 * - An archive (the worker's outputs) has no listing order: its folders are walked in the order of
 *   their first entry; PaperBench walks the extracted folder in the file system's order. The
 *   fixtures are folders, read in the same `readdir` order by both.
 * - A pydantic validation error's multi-line text (with a docs URL and pydantic's version) is
 *   summarised in the invalid leaf's explanation; the empty-answer and out-of-range errors, which
 *   the fixtures use, have PaperBench's exact text.
 * - A non-integer `reproduce.log.creation_time` makes PaperBench's judge crash (`int()`); here it
 *   falls back to the log's mtime. The fixtures write integers.
 * - PaperBench's `run_judge` builds the Code-Dev root-as-leaf with `set_task_category` before
 *   `set_sub_tasks([])`, which raises on a root with children; the harness builds the tree that
 *   code means (the root, no children, "Code Development"), which is what the studio grades.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPaperbenchJudge, type PbGradedNode } from "@/lib/judge/paperbench/simple-judge";
import { renderTemplate, type PaperbenchPrompts } from "@/lib/judge/paperbench/prompts";
import { loadPaperbenchPrompts } from "@/server/judge/paperbench-prompts";
import { directorySubmissionFiles } from "@/server/judge/directory-submission";
import { createOpenAiChatModel } from "@/server/judge/openai-chat-model";
import { buildParityFixtures, fixtureJudgeInput, scriptKeyOf, type ParityFixture } from "./fixtures/generate";
import {
  PAPERBENCH_SRC_DIR,
  requirePaperbenchPython,
  runPaperbenchPython,
  skipWithoutPaperbenchPython,
} from "./python";
import { startRecordingServer, type RecordedBody } from "./recording-server";

interface PyCall {
  key: string | null;
  purpose: "rank" | "grade" | "parse";
  model: string;
  response_format: string | null;
  messages: { role: string; content: string }[];
}
interface PyOut {
  fixtures: { name: string; calls: PyCall[]; tree: unknown }[];
  responseFormats: Record<string, unknown>;
}

function answerFor(fx: ParityFixture, purpose: "rank" | "grade" | "parse", key: string | null) {
  const entry = fx.script[key ?? ""] ?? {};
  const content = entry[purpose] ?? fx.script._default[purpose].replaceAll("{key}", key ?? "");
  const n = key ? Number(key.slice(2, -1)) : 0;
  const u = { rank: 0, grade: 1, parse: 2 }[purpose];
  return { content, promptTokens: 1000 + 10 * n + u, completionTokens: 50 + n + u };
}

function groupCalls<T extends { key: string | null; purpose: string }>(calls: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const c of calls) {
    const k = `${c.key} ${c.purpose}`;
    out.set(k, [...(out.get(k) ?? []), c]);
  }
  return out;
}

describe.skipIf(skipWithoutPaperbenchPython)("paperbench mode = PaperBench's SimpleJudge, call for call", () => {
  let root: string;
  let fixtures: ParityFixture[];
  let python: PyOut;
  let prompts: PaperbenchPrompts;

  beforeAll(async () => {
    requirePaperbenchPython();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "pb-parity-"));
    fixtures = buildParityFixtures(root);
    prompts = await loadPaperbenchPrompts(PAPERBENCH_SRC_DIR);
    const harness = fs.readFileSync(path.join(import.meta.dirname, "simple_judge_harness.py"), "utf8");
    python = JSON.parse(await runPaperbenchPython(harness, JSON.stringify({ fixtures }))) as PyOut;
  }, 600_000);

  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("sends the same calls and writes the same graded tree on every fixture", async () => {
    const coverage: { fx: ParityFixture; calls: PyCall[]; tree: PbGradedNode }[] = [];
    let unitsCompared = 0;
    let callsCompared = 0;
    for (const fx of fixtures) {
      const py = python.fixtures.find((f) => f.name === fx.name)!;
      const server = await startRecordingServer((body: RecordedBody) => {
        const purpose = body.response_format
          ? "parse"
          : body.messages[0]?.content === prompts.fileRankingPrompt
            ? "rank"
            : "grade";
        return answerFor(fx, purpose, scriptKeyOf(body.messages));
      });
      try {
        const model = createOpenAiChatModel({ baseUrl: server.baseUrl, apiKey: "test-key", maxRetries: 0 });
        const result = await runPaperbenchJudge(
          fixtureJudgeInput(fx, directorySubmissionFiles(fx.submissionDir), "parity"),
          model,
          {},
          { prompts, now: fx.nowSeconds * 1000 },
        );
        const ours = server.bodies.map((b) => ({
          key: scriptKeyOf(b.messages),
          purpose: b.response_format
            ? "parse"
            : b.messages[0]?.content === prompts.fileRankingPrompt
              ? "rank"
              : "grade",
          body: b,
        }));
        const theirs = groupCalls(py.calls);
        const mine = groupCalls(ours);
        expect([...mine.keys()].sort(), `${fx.name}: the calls made`).toEqual([...theirs.keys()].sort());
        for (const [k, pyCalls] of theirs) {
          const tsCalls = mine.get(k)!;
          expect(tsCalls.length, `${fx.name} ${k}: number of calls`).toBe(pyCalls.length);
          for (let i = 0; i < pyCalls.length; i++) {
            const p = pyCalls[i];
            const t = tsCalls[i].body;
            expect(t.model, `${fx.name} ${k}: model`).toBe(p.model);
            expect(t.messages.length, `${fx.name} ${k}: message count`).toBe(p.messages.length);
            for (let m = 0; m < p.messages.length; m++) {
              expect(t.messages[m].role, `${fx.name} ${k} message ${m}: role`).toBe(p.messages[m].role);
              // Byte-identical: compared as UTF-8 bytes, then (for a readable diff) as text.
              if (!Buffer.from(t.messages[m].content, "utf8").equals(Buffer.from(p.messages[m].content, "utf8"))) {
                expect(t.messages[m].content, `${fx.name} ${k} message ${m}`).toBe(p.messages[m].content);
              }
            }
            expect(t.response_format ?? null, `${fx.name} ${k}: response_format`).toEqual(
              p.response_format ? python.responseFormats[p.response_format] : null,
            );
            callsCompared++;
          }
        }
        expect(result.tree, `${fx.name}: the graded tree`).toEqual(py.tree);
        coverage.push({ fx, calls: py.calls, tree: result.tree });
        expect(result.units.length, `${fx.name}: units graded`).toBe(fx.expectedUnits);
        unitsCompared += result.units.length;
      } finally {
        await server.close();
      }
    }
    console.log(
      `SimpleJudge parity: ${unitsCompared} leaves/pseudo-leaves and ${callsCompared} calls compared over ${fixtures.length} fixtures`,
    );
    expect(unitsCompared).toBe(18);

    // The fixtures reach what they are meant to (identical output proves nothing about a path never taken).
    const of = (name: string) => coverage.find((c) => c.fx.name === name)!;
    const flat = (n: PbGradedNode): PbGradedNode[] => [n, ...n.sub_tasks.flatMap(flat)];
    const gradeOf = (name: string, key: string) =>
      of(name).calls.find((c) => c.key === key && c.purpose === "grade")!.messages;
    const full = flat(of("full").tree);
    expect(full.find((n) => n.task_category === "Subtree")?.requirements).toContain("| [K8]");
    expect(full.find((n) => n.requirements.startsWith("[K11]"))?.explanation).toBe("Score is not between 0 and 1: 2");
    expect(full.find((n) => n.requirements.startsWith("[K10]"))?.explanation).toBe("Response could not be parsed: ");
    const k2Files = gradeOf("full", "[K2]")[3].content;
    expect(k2Files).toContain("(FILE IS EMPTY)");
    expect(k2Files).toContain("café naïve");
    expect(k2Files).not.toContain("README.md>"); // named with a leading "/": read, then dropped by relative_to
    expect(gradeOf("full", "[K6]")[3].content).toContain("<FILE:results/big_results.csv>");
    expect(gradeOf("full", "[K6]")[3].content).not.toContain("<FILE:results/metrics.json>"); // the big file used the budget
    // Duplicate ids: [K10] gets the preceding criteria of the first node with its id ([K3]).
    expect(gradeOf("full", "[K10]").at(-2)!.content).toContain(" -> [K2]");
    const tightLog = gradeOf("tight", "[K22]").find((m) => m.content.includes("<reproduce.log>"))!.content;
    // The log did not fit at all: SimpleJudge's log message with nothing inside it.
    expect(tightLog).toBe(renderTemplate(prompts.simpleJudge, "reproduceLog", { "self.reproduce_log_content": "" }));
    expect(of("codedev-root").tree).toMatchObject({ task_category: "Code Development", sub_tasks: [] });
    expect(
      flat(of("untouched").tree)
        .filter((n) => n.task_category === "Result Analysis")
        .every((n) => n.judge_metadata === null && n.score === 0),
    ).toBe(true);
  }, 600_000);
});
