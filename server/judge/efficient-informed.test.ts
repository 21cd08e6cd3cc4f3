/**
 * Efficient mode never shows the judge less than PaperBench's SimpleJudge would, leaf by leaf: every
 * file PaperBench would show (at least as much of it), every log line, the same preceding criteria;
 * and on a large submission a Code Development leaf's room for files is at least PaperBench's.
 *
 * PaperBench's side is computed here from its own rules (paperbench/judge/simple.py, base.py,
 * utils.py): the whitelists and the substring blacklist of `_get_whitelisted_files`, the
 * `reproduce.log.creation_time` mtime rule, `safe_read_file`'s first 200,000 characters (UTF-8, else
 * latin-1), the log's reduced head cut by `_truncate_input`, and `_prepare_relevant_files`' fill of
 * the ranked files (at most 10, within the window less paper, log and 12k tokens). Both modes get the
 * same ranking answer.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ChatModel, ChatRequest, JudgeRubricNode } from "@/lib/judge/engine-contract";
import { decodeTokens, encodeText } from "@/lib/judge/engine/budget";
import {
  efficientGradeMessages,
  filesRoom,
  filesSurelyFit,
  paperbenchFilesRoom,
} from "@/lib/judge/engine/call-messages";
import { gradeSubmission } from "@/lib/judge/engine/grade-submission";
import { reduceLog as paperbenchReduceLog } from "@/lib/judge/paperbench/reduce-log";
import { readPythonText } from "@/lib/judge/paperbench/python-text";
import { prepareSubmission } from "@/lib/judge/engine/prepare-submission";
import { RANKING_REQUEST } from "@/lib/judge/engine/prompts";
import { judgedTree, planLeaves, type PlannedLeaf } from "@/lib/judge/engine/rubric-plan";
import { demoJudgeInput } from "./judge-fixtures.testutil";
import { directorySubmissionFiles } from "./directory-submission";

const MODEL = "o3-mini";
const CREATED_S = 1_750_000_000;

// ---- PaperBench's rules, written out from its source ------------------------------------------

const PB_BLACKLIST = ["venv", ".venv", ".env", "wandb", ".egg-info", ".git", ".github", "__pycache__", "node_modules"];
const PB_DOCS = [".md", ".txt", ".rst"];
const PB_CODE = [
  ".py",
  ".R",
  ".Rmd",
  ".m",
  ".jl",
  ".c",
  ".h",
  ".cpp",
  ".hpp",
  ".cc",
  ".cxx",
  ".hxx",
  ".java",
  ".js",
  ".ts",
  ".scala",
  ".go",
  ".rs",
  ".sh",
  ".config",
  ".cfg",
  ".json",
  ".yaml",
  ".yml",
  ".toml",
  ".ini",
];
const PB_TABLES = [
  ".csv",
  ".tsv",
  ".psv",
  ".json",
  ".jsonl",
  ".html",
  ".xml",
  ".yaml",
  ".yml",
  ".toml",
  ".arff",
  ".tex",
  ".svm",
  ".libsvm",
];

/** Python's `Path.suffix`. */
function suffix(p: string): string {
  const name = path.basename(p);
  const dot = name.lastIndexOf(".");
  return dot <= 0 || dot === name.length - 1 ? "" : name.slice(dot);
}

/** `_get_whitelisted_files` (no depth limit: its first attempt), paths relative to the submission. */
function pbWhitelisted(root: string, category: string, creationS: number): string[] {
  const allowed = new Set(
    category === "Result Analysis"
      ? [...PB_DOCS, ...PB_TABLES]
      : category === "Subtree"
        ? [...PB_DOCS, ...PB_CODE, ...PB_TABLES]
        : [...PB_DOCS, ...PB_CODE],
  );
  const out: string[] = [];
  const walk = (dir: string) => {
    const rel = path.relative(root, dir);
    const parts = rel === "" ? [] : rel.split(path.sep);
    const skipped = parts.some((part) => PB_BLACKLIST.some((b) => part.includes(b)));
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (!skipped && allowed.has(suffix(e.name))) {
        const mtimeS = fs.statSync(full).mtimeMs / 1000;
        const ext = suffix(e.name);
        const keep =
          category === "Result Analysis"
            ? PB_DOCS.includes(ext) || mtimeS >= creationS
            : category === "Subtree"
              ? PB_DOCS.includes(ext) || PB_CODE.includes(ext) || mtimeS >= creationS
              : true;
        if (keep) out.push(path.relative(root, full).split(path.sep).join("/"));
      }
    }
  };
  walk(root);
  return out;
}

/** `safe_read_file(path, 200_000)` (the port, compared with PaperBench's own in its tests). */
function pbRead(file: string): string {
  return readPythonText(fs.readFileSync(file));
}

/** Python's `tokens[:stop]`. */
const upTo = (t: number[], stop: number) => t.slice(0, stop < 0 ? Math.max(0, t.length + stop) : stop);

/** The log and paper tokens after `_truncate_input`, and the log's text. */
function pbLogAndPaper(root: string, paper: string, ctx: number) {
  const logFile = path.join(root, "reproduce.log");
  const logText = fs.existsSync(logFile) ? paperbenchReduceLog(pbRead(logFile)) : "(Does not exist)";
  let log = encodeText(MODEL, logText).slice(0, Math.floor(ctx / 2));
  let pap = encodeText(MODEL, paper);
  if (ctx - (log.length + pap.length) < 0) log = upTo(log, ctx - (log.length + pap.length) - 5000);
  if (ctx - (log.length + pap.length) < 0) pap = upTo(pap, ctx - (log.length + pap.length) - 5000);
  return { log: decodeTokens(MODEL, log), logTokens: log.length, paperTokens: pap.length };
}

/** `_prepare_relevant_files` for a ranking answer: each shown file's content (the last one possibly cut). */
function pbShownFiles(root: string, answer: string, category: string, ctx: number, paper: string): Map<string, string> {
  const { logTokens, paperTokens } = pbLogAndPaper(root, paper, ctx);
  const maxTokens = ctx - (paperTokens + (category === "Code Development" ? 0 : logTokens) + 10_000) - 2_000;
  const tokens: number[] = [];
  let total = 0;
  let n = 0;
  for (const line of answer.split("\n").slice(0, 10)) {
    const rel = line.trim().replace(/^\/+|\/+$/g, "");
    const full = path.join(root, rel);
    if (!rel || !fs.existsSync(full) || fs.statSync(full).isDirectory()) continue;
    const content = pbRead(full);
    const formatted = `<FILE:${rel}>\n${content.trim() ? content : "(FILE IS EMPTY)"}\n</FILE:${rel}>`;
    let t = encodeText(MODEL, formatted + "\n\n");
    n++;
    if (total + t.length > maxTokens) {
      t = t.slice(0, Math.max(0, maxTokens - total));
      tokens.push(...t);
      break;
    }
    tokens.push(...t);
    total += t.length;
    if (n >= 10) break;
  }
  const text = decodeTokens(MODEL, tokens);
  const shown = text.slice(0, Math.max(0, text.lastIndexOf("\n")));
  const out = new Map<string, string>();
  const re = /<FILE:([^>\n]+)>\n/g;
  const starts = [...shown.matchAll(re)];
  starts.forEach((m, i) => {
    const from = m.index! + m[0].length;
    const to = i + 1 < starts.length ? starts[i + 1].index! : shown.length;
    const body = shown.slice(from, to).replace(/\n*$/, "");
    const close = `\n</FILE:${m[1]}>`;
    const content = body.endsWith(close.slice(1)) ? body.slice(0, body.lastIndexOf(close)) : body;
    if (content !== "(FILE IS EMPTY)") out.set(m[1], content);
  });
  return out;
}

// ---- efficient mode's side ---------------------------------------------------------------------

/** Each file's content in an efficient-mode files message (numbered lines unnumbered). */
function efficientShownFiles(message: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of message.matchAll(/<file path="([^"]+)">\n([\s\S]*?)(?:\n<\/file>|\n… \(cut|$)/g)) {
    const body = m[2];
    const numbered = body.split("\n").every((l) => /^\d+\| /.test(l) || l.startsWith("[… only the first"));
    out.set(
      m[1],
      numbered
        ? body
            .split("\n")
            .map((l) => l.replace(/^\d+\| /, ""))
            .join("\n")
        : body,
    );
  }
  return out;
}

class RecordingModel implements ChatModel {
  readonly supportsJsonSchema = true;
  readonly requests: ChatRequest[] = [];
  constructor(private readonly rank: (category: string) => string) {}
  async complete(request: ChatRequest) {
    this.requests.push(request);
    const last = request.messages.at(-1)!.content;
    const usage = {
      model: request.model,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      reasoningTokens: 0,
      attempts: 1,
    };
    if (last.includes(RANKING_REQUEST)) {
      const category = /\(category: ([^)]+)\)/.exec(request.messages.at(-2)!.content)![1];
      return { content: this.rank(category), usage };
    }
    return { content: JSON.stringify({ valid_score: true, score: 1, explanation: "ok", evidence: [] }), usage };
  }
}

// ---- fixtures ------------------------------------------------------------------------------------

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function node(
  key: string,
  requirements: string,
  category: string | null,
  subs: JudgeRubricNode[] = [],
): JudgeRubricNode {
  return {
    key,
    id: key,
    requirements,
    weight: 1,
    task_category: subs.length ? null : category,
    finegrained_task_category: null,
    sub_tasks: subs,
  };
}

/** Every category, preceding siblings at several levels, a subtree to grade whole at a max depth. */
const RUBRIC = node("0", "Reproduce the paper", null, [
  node("1", "Implement the method", null, [
    node("2", "The model is implemented", "Code Development"),
    node("3", "The training loop is implemented", "Code Development"),
  ]),
  node("4", "Run the experiments", null, [
    node("5", "Training was run", "Code Execution"),
    node("6", "Table 1 is reproduced", "Result Analysis"),
  ]),
  node("7", "Ablations", null, [
    node("8", "Ablation code", "Code Development"),
    node("9", "Ablation runs", null, [
      node("10", "Ablation ran", "Code Execution"),
      node("11", "Ablation results match", "Result Analysis"),
    ]),
  ]),
]);

const progress = (i: number) => `Epoch ${i}: ${"█".repeat(i % 20)}| ${(i % 100).toString().padStart(3)}% 12.3it/s`;

/** A submission covering PaperBench's reading rules; `large` adds code far over any window. */
function fixture(large: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "efficient-informed-"));
  dirs.push(dir);
  const write = (rel: string, data: string | Buffer, mtimeS = CREATED_S - 3600) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), data);
    fs.utimesSync(path.join(dir, rel), mtimeS, mtimeS);
  };
  write("README.md", "# Attempt\nRun reproduce.sh.\n");
  write("train.py", "import torch\n\ndef train():\n    return 1\n");
  write("kernels/attn.cu", "__global__ void k() {}\n");
  write("notebooks/analysis.ipynb", JSON.stringify({ cells: [{ source: ["print(1)"] }] }));
  write("utils/legacy.py", Buffer.from("# caf\xe9 na\xefve\nx = 1\n", "latin1"));
  write("wandb_logging/run.py", "LOG = True\n");
  write("venv/lib/site.py", "x = 1\n");
  write(".tox/helper.py", "y = 2\n");
  write("weights.bin", Buffer.from([0, 1, 2, 3]));
  write("notes/run.log", "a log no whitelist names\n");
  write("old_results.csv", "a,b\n1,2\n");
  write("results/table1.csv", "method,acc\nours,0.93\n", CREATED_S + 60);
  // Over 1 MiB: PaperBench reads its first 200,000 characters.
  write(
    "results/big.csv",
    Array.from({ length: 60_000 }, (_, i) => `${i},${(i * 0.37).toFixed(3)},row`).join("\n"),
    CREATED_S + 60,
  );
  if (large)
    for (let i = 0; i < 30; i++)
      write(
        `src/module_${String(i).padStart(2, "0")}.py`,
        Array.from({ length: 800 }, (_, j) => `def f_${i}_${j}(x):\n    return x * ${j} + ${i}\n`).join(""),
      );
  write("reproduce.sh", "#!/bin/bash\npython train.py\n");
  const log = [
    "2025-06-01T12:00:00.000Z starting",
    ...Array.from(
      { length: 4000 },
      (_, i) => `2025-06-01 12:00:${String(i % 60).padStart(2, "0")} step ${i} loss ${(1 / (i + 1)).toFixed(6)}`,
    ),
    ...Array.from({ length: 3000 }, (_, i) => progress(i)),
    ...Array.from({ length: 3000 }, (_, i) => `eval batch ${i} acc ${(i % 97) / 100}`),
    "FINAL RESULTS: accuracy 0.9321",
  ].join("\n");
  write("reproduce.log", log, CREATED_S + 120);
  write("reproduce.log.creation_time", String(CREATED_S), CREATED_S);
  return dir;
}

interface Case {
  name: string;
  dir: string;
  ctx: number;
  maxDepth: number | null;
  /** The ranking answer; default: PaperBench's whitelisted files of the category, in path order. */
  rank?: (category: string) => string;
}

const small = fixture(false);
const large = fixture(true);
const cases: Case[] = [
  { name: "a submission that fits", dir: small, ctx: 200_000, maxDepth: null },
  { name: "a subtree graded whole at the max depth", dir: small, ctx: 200_000, maxDepth: 2 },
  { name: "a submission far over the window", dir: large, ctx: 128_000, maxDepth: null },
  {
    name: "a ranking answer with blank lines, numbering and files outside the category",
    dir: large,
    ctx: 128_000,
    maxDepth: null,
    rank: (category) =>
      [
        "",
        "1. src/module_00.py",
        "notes/run.log",
        "results/table1.csv",
        ...pbWhitelisted(large, category, CREATED_S).sort().reverse(),
      ].join("\n"),
  },
];

describe("efficient mode shows at least what PaperBench shows, leaf by leaf", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const input = demoJudgeInput(c.dir, { rubric: RUBRIC, contextWindow: c.ctx, maxDepth: c.maxDepth, model: MODEL });
      const paper = input.paper.markdown;
      // The same ranking answer for both: PaperBench's whitelisted files of the category, in path order.
      const rank = c.rank ?? ((category: string) => pbWhitelisted(c.dir, category, CREATED_S).sort().join("\n"));
      const model = new RecordingModel(rank);
      await gradeSubmission(input, model);
      const leaves = planLeaves(judgedTree(RUBRIC, false)!, c.maxDepth);
      const pbLog = pbLogAndPaper(c.dir, paper, c.ctx).log;
      let compared = 0;
      for (const leaf of leaves) {
        const grading = model.requests.find(
          (r) => r.jsonSchema && r.messages.at(-2)!.content.includes(`<criterion>\n${leaf.requirements}\n</criterion>`),
        );
        expect(grading, leaf.requirements).toBeDefined();
        const text = grading!.messages.map((m) => m.content).join("\n");
        const category = leaf.category;
        // Files: every file PaperBench would show, at least as much of it.
        const filesMessage = grading!.messages.find((m) => m.content.includes("<files>\n"))!.content;
        const efficient = efficientShownFiles(filesMessage);
        const pbShown = pbShownFiles(c.dir, rank(category), category, c.ctx, paper);
        expect(pbShown.size, `${c.name}: ${leaf.requirements}`).toBeGreaterThan(0);
        for (const [file, content] of pbShown) {
          // reproduce.sh has its own message in efficient mode (whole), not among the files.
          if (file === "reproduce.sh") {
            expect(text).toContain(`<reproduce.sh>\n${content.replace(/\n+$/, "")}`);
            continue;
          }
          expect(efficient.has(file), `${c.name}: ${leaf.requirements}: ${file}`).toBe(true);
          expect(
            efficient.get(file)!.replace(/\r/g, "").startsWith(content.replace(/\n+$/, "")),
            `${c.name}: ${file}`,
          ).toBe(true);
        }
        // The log: PaperBench's text whole, for every category it shows the log to.
        if (category === "Code Development") expect(text).not.toContain("<reproduce.log>");
        else expect(text).toContain(`<reproduce.log>\n${pbLog}`);
        // The preceding criteria: what the plan gives, PaperBench's prior nodes.
        for (const r of leaf.preceding) expect(text).toContain(` -> ${r}`);
        compared++;
      }
      expect(compared).toBe(leaves.length);
    });
  }

  it("the log's end (final results) is shown past PaperBench's head", async () => {
    const c = cases[0];
    const model = new RecordingModel((category) => pbWhitelisted(c.dir, category, CREATED_S).join("\n"));
    await gradeSubmission(demoJudgeInput(c.dir, { rubric: RUBRIC, model: MODEL }), model);
    const log = model.requests
      .map((r) => r.messages.find((m) => m.content.includes("<reproduce.log>")))
      .find(Boolean)!.content;
    expect(log).toContain("FINAL RESULTS: accuracy 0.9321");
  });
});

/** A case's submission prepared for grading every leaf of the rubric (as the grader does). */
async function preparedCase(c: Case) {
  const input = demoJudgeInput(c.dir, {
    rubric: RUBRIC,
    contextWindow: c.ctx,
    model: MODEL,
    submission: directorySubmissionFiles(c.dir),
  });
  const leaves: PlannedLeaf[] = planLeaves(RUBRIC, null);
  return { input, leaves, p: await prepareSubmission(input, leaves) };
}

describe("a Code Development leaf's room for files on a large submission", () => {
  it("is at least PaperBench's (the log and the tree are not in its prompt)", async () => {
    const c = cases[2];
    const { input, leaves, p } = await preparedCase(c);
    for (const leaf of leaves) {
      const messages = efficientGradeMessages(p, leaf, { role: "user", content: "" }, true).filter(
        (m) => m.content !== "",
      );
      const room = filesRoom(p, leaf, messages);
      const pb = paperbenchFilesRoom(p, leaf.fileCategory);
      expect(room, leaf.requirements).toBeGreaterThanOrEqual(pb);
      if (leaf.fileCategory === "Code Development") {
        // PaperBench: window − paper − 12k; the log is far over a CD leaf's share but not in its prompt.
        const { paperTokens } = pbLogAndPaper(c.dir, input.paper.markdown, c.ctx);
        expect(pb).toBe(c.ctx - paperTokens - 12_000);
        expect(room).toBeGreaterThan(100_000);
      }
    }
    expect(p.categories.get("Code Development")!.messageTokens).toBeGreaterThan(c.ctx);
  });
});

describe("deciding that a leaf's files fit without counting its own messages", () => {
  // The grader skips the exact count when filesSurelyFit says yes: it must never say yes where the
  // exact room is smaller (the files would be shown whole where PaperBench's room cuts them).
  for (const c of [cases[0], cases[2]]) {
    it(`never says they fit where the counted room does not hold them: ${c.name}`, async () => {
      const { leaves, p } = await preparedCase(c);
      let sure = 0;
      for (const leaf of leaves) {
        const category = p.categories.get(leaf.fileCategory)!;
        const rest = efficientGradeMessages(p, leaf, category.message, true).filter((m) => m !== category.message);
        const room = filesRoom(p, leaf, rest);
        for (const tokens of [0, category.messageTokens, room, room + 1]) {
          if (filesSurelyFit(p, leaf, rest, tokens)) {
            expect(tokens, leaf.requirements).toBeLessThanOrEqual(room);
            if (tokens === category.messageTokens) sure++;
          }
        }
        expect(filesSurelyFit(p, leaf, rest, room + 1)).toBe(false);
      }
      // On the small submission every leaf's files fit, and the shortcut sees it for each one.
      if (c.dir === small) expect(sure).toBe(leaves.length);
      else expect(sure).toBeLessThan(leaves.length);
    });
  }
});
