/**
 * Efficient mode never shows a leaf less than paperbench mode does, on the parity fixtures
 * (test/paperbench/fixtures/generate.ts: every category, a Subtree pseudo-leaf, a long log with
 * progress bars and results at its end, a file over 1 MiB, a latin-1 file, `.ipynb`/`.cu`,
 * `wandb_logging/` and `venv/`, a rubric without Code Development, duplicate ids, preceding siblings,
 * ranking answers with blank lines and numbering, a submission that does not fit). Both modes run on
 * the same fixtures with the same scripted ranking answers; for every leaf, every file paperbench
 * mode shows appears in efficient mode with at least as much of it, its reproduce.sh and
 * reproduce.log text is in efficient mode's, and the preceding criteria are identical.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatModel, ChatRequest, JudgeRunInput } from "@/lib/judge/engine-contract";
import { gradeSubmission } from "@/lib/judge/engine/grade-submission";
import { RANKING_REQUEST } from "@/lib/judge/engine/prompts";
import type { PaperbenchPrompts } from "@/lib/judge/paperbench/prompts";
import { runPaperbenchJudge } from "@/lib/judge/paperbench/simple-judge";
import { directorySubmissionFiles } from "@/server/judge/directory-submission";
import { loadPaperbenchPrompts } from "@/server/judge/paperbench-prompts";
import {
  buildParityFixtures,
  fixtureJudgeInput,
  scriptKeyOf,
  type ParityFixture,
} from "@/test/paperbench/fixtures/generate";
import { PAPERBENCH_SRC_DIR } from "@/test/paperbench/python";

function rankAnswer(fx: ParityFixture, key: string | null): string {
  return (fx.script[key ?? ""] ?? {}).rank ?? fx.script._default.rank;
}

class ScriptedModel implements ChatModel {
  readonly supportsJsonSchema = true;
  readonly requests: ChatRequest[] = [];
  constructor(private readonly answer: (request: ChatRequest) => string) {}
  async complete(request: ChatRequest) {
    this.requests.push(request);
    return {
      content: this.answer(request),
      usage: {
        model: request.model,
        inputTokens: 0,
        cachedInputTokens: 0,
        outputTokens: 0,
        reasoningTokens: 0,
        attempts: 1,
      },
    };
  }
}

function between(text: string, open: string, close: string): string | null {
  const a = text.indexOf(open);
  if (a < 0) return null;
  const b = text.lastIndexOf(close);
  return b < a ? text.slice(a + open.length) : text.slice(a + open.length, b);
}

/** Paperbench mode's files: `<FILE:p>\ncontent\n</FILE:p>` blocks, the last one possibly cut. */
function paperbenchFiles(files: string): Map<string, string> {
  const out = new Map<string, string>();
  const starts = [...files.matchAll(/<FILE:([^>\n]+)>\n/g)];
  starts.forEach((m, i) => {
    const from = m.index! + m[0].length;
    const body = files.slice(from, i + 1 < starts.length ? starts[i + 1].index! : files.length).replace(/\n*$/, "");
    const close = `\n</FILE:${m[1]}>`;
    const content = body.endsWith(close)
      ? body.slice(0, -close.length)
      : body.endsWith(close.slice(1))
        ? body.slice(0, -close.length + 1)
        : body;
    out.set(m[1], content === "(FILE IS EMPTY)" ? "" : content);
  });
  return out;
}

/** Efficient mode's files: `<file path="p">` blocks, numbered lines unnumbered. */
function efficientFiles(message: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of message.matchAll(/<file path="([^"]+)">\n([\s\S]*?)(?:\n<\/file>|\n… \(cut|$)/g)) {
    const lines = m[2].split("\n");
    const numbered = lines.every((l) => /^\d+\| /.test(l));
    out.set(m[1], numbered ? lines.map((l) => l.replace(/^\d+\| /, "")).join("\n") : m[2]);
  }
  return out;
}

/** The file paths of a tree drawn as SimpleJudge draws it (`├── `, `└── `, 4 columns a level). */
function treePaths(tree: string): Set<string> {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const m = /^((?:│   | {4})*)(?:├── |└── )(.*)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    out.add(stack.join("/"));
  }
  return out;
}

/** A grading call's preceding criteria, one string per criterion. */
function paperbenchPreceding(criterion: string): string {
  return between(criterion, "<preceding_criteria>\n", "\n</preceding_criteria>") ?? "";
}
function efficientPreceding(criterion: string): string {
  const block = between(criterion, "for context:\n", "\n\nThe criterion to grade") ?? "";
  return block === " (none)" ? "" : `${block}\n`;
}

describe("efficient mode shows at least what paperbench mode shows, on the parity fixtures", () => {
  let root: string;
  let fixtures: ParityFixture[];
  let prompts: PaperbenchPrompts;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "efficient-vs-pb-"));
    fixtures = buildParityFixtures(root);
    prompts = await loadPaperbenchPrompts(PAPERBENCH_SRC_DIR);
  }, 120_000);
  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("every leaf: the same files or more, the same log lines or more, the same preceding criteria", async () => {
    let compared = 0;
    let outsideUnranked = 0;
    for (const fx of fixtures) {
      const input: JudgeRunInput = fixtureJudgeInput(fx, directorySubmissionFiles(fx.submissionDir), "efficient-vs-pb");
      const pb = new ScriptedModel((r) =>
        r.jsonSchema
          ? JSON.stringify({ valid_score: true, score: 1, explanation: "ok" })
          : r.messages[0].content === prompts.fileRankingPrompt
            ? rankAnswer(fx, scriptKeyOf(r.messages))
            : "Score: 1",
      );
      await runPaperbenchJudge(input, pb, {}, { prompts, now: fx.nowSeconds * 1000 });
      const eff = new ScriptedModel((r) =>
        r.messages.at(-1)!.content.includes(RANKING_REQUEST)
          ? rankAnswer(fx, scriptKeyOf(r.messages))
          : JSON.stringify({ valid_score: true, score: 1, explanation: "ok", evidence: [] }),
      );
      await gradeSubmission({ ...input, mode: "efficient" }, eff);

      const pbGrades = pb.requests.filter((r) => !r.jsonSchema && r.messages[0].content !== prompts.fileRankingPrompt);
      expect(pbGrades.length, fx.name).toBeGreaterThan(0);
      for (const grade of pbGrades) {
        const key = scriptKeyOf(grade.messages);
        const where = `${fx.name} ${key}`;
        const ours = eff.requests.find((r) => r.jsonSchema && scriptKeyOf(r.messages) === key);
        expect(ours, where).toBeDefined();
        const pbText = grade.messages.map((m) => m.content).join("\n");
        const effText = ours!.messages.map((m) => m.content).join("\n");
        // Files.
        const pbShown = paperbenchFiles(between(pbText, "<files>\n", "\n</files>") ?? "");
        const effShown = efficientFiles(between(effText, "<files>\n", "\n</files>") ?? "");
        for (const [file, content] of pbShown) {
          if (file === "reproduce.sh" && effText.includes("<reproduce.sh>")) {
            expect(
              between(effText, "<reproduce.sh>\n", "\n</reproduce.sh>")!.replace(/\r\n?/g, "\n").startsWith(content),
              `${where} ${file}`,
            ).toBe(true);
            continue;
          }
          // A file outside the category's tree is shown by PaperBench only because its ranking named it;
          // efficient mode, which ranks only when the files do not fit, shows it when it ranks too.
          const pbRank = pb.requests.find(
            (r) => r.messages[0].content === prompts.fileRankingPrompt && scriptKeyOf(r.messages) === key,
          )!;
          const inTree = treePaths(
            between(pbRank.messages.at(-1)!.content, "Directory structure:\n", "\n\nNow return") ?? "",
          ).has(file);
          const effRanked = eff.requests.some(
            (r) => r.messages.at(-1)!.content.includes(RANKING_REQUEST) && scriptKeyOf(r.messages) === key,
          );
          if (!inTree && !effRanked) {
            outsideUnranked++;
            continue;
          }
          expect(effShown.has(file), `${where} ${file}`).toBe(true);
          expect(
            effShown.get(file)!.replace(/\r\n?/g, "\n").startsWith(content.replace(/\n+$/, "")),
            `${where} ${file}`,
          ).toBe(true);
        }
        // reproduce.sh and reproduce.log: paperbench mode's text within efficient mode's.
        for (const tag of ["reproduce.sh", "reproduce.log"]) {
          const theirs = between(pbText, `<${tag}>\n`, `\n</${tag}>`);
          if (theirs === null || theirs === "(Does not exist)") continue;
          const mine = between(effText, `<${tag}>\n`, `\n</${tag}>`);
          expect(mine, `${where} ${tag}`).not.toBeNull();
          expect(mine!.replace(/\r\n?/g, "\n").startsWith(theirs.replace(/\r\n?/g, "\n")), `${where} ${tag}`).toBe(
            true,
          );
        }
        // The preceding criteria.
        const pbCriterion = grade.messages.find((m) => m.content.includes("<preceding_criteria>"))!.content;
        const effCriterion = ours!.messages.find((m) => m.content.includes("<criterion>"))!.content;
        expect(efficientPreceding(effCriterion), where).toBe(paperbenchPreceding(pbCriterion));
        compared++;
      }
    }
    // Every leaf paperbench mode grades with a call is compared (Result Analysis shortcuts make none).
    console.log(
      `efficient vs paperbench: ${compared} leaves compared; ${outsideUnranked} files outside the category that only a ranking named, where efficient mode did not rank`,
    );
    expect(compared).toBeGreaterThan(0);
  });
});
