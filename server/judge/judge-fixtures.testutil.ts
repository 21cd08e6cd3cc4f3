/** The demo paper, rubric and submission as a judge run's input, for the engine, CLI and bench tests. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { JudgeRunInput } from "@/lib/judge/engine-contract";
import { rubricToJudgeTree } from "@/lib/judge/engine/rubric-plan";
import { parseRubricJson } from "@/lib/rubric/paperbench";
import type { RubricNode } from "@/lib/rubric/types";
import { directorySubmissionFiles } from "./directory-submission";

export const DEMO_DIR = path.resolve(import.meta.dirname, "../../rubrics/demo");

export function readRubricFile(file: string): RubricNode {
  const parsed = parseRubricJson(fs.readFileSync(file, "utf8"));
  if (!parsed.ok) throw new Error(`${file}: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`);
  return parsed.tree;
}

export const DEMO_LOG = [
  "WAGC demo reproduction: 5 methods x 3 seeds",
  ...Array.from({ length: 12 }, (_, i) => `[wagc] seed ${i % 3} step ${(i + 1) * 250}/1000 val_bpc=1.5${i}`),
  "wrote results/table1.csv",
].join("\n");

/**
 * A copy of the demo submission as a reproduction leaves it: reproduce.log, its creation time,
 * the submitted files dated before it and (when `touched`) results/table1.csv written after it.
 */
export function demoSubmissionCopy(
  options: { touched?: boolean; log?: string; extra?: Record<string, string> } = {},
): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "judge-demo-"));
  fs.cpSync(path.join(DEMO_DIR, "submission"), dir, { recursive: true });
  for (const [rel, text] of Object.entries(options.extra ?? {})) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  const created = new Date("2025-06-01T12:00:00Z");
  const before = new Date(created.getTime() - 3600_000);
  const after = new Date(created.getTime() + 600_000);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else fs.utimesSync(p, before, before);
    }
  };
  walk(dir);
  fs.writeFileSync(path.join(dir, "reproduce.log"), options.log ?? DEMO_LOG);
  fs.writeFileSync(path.join(dir, "reproduce.log.creation_time"), created.toISOString());
  if (options.touched ?? true) {
    fs.mkdirSync(path.join(dir, "results"), { recursive: true });
    fs.writeFileSync(
      path.join(dir, "results/table1.csv"),
      "method,mean_val_bpc,seeds\nwagc,1.509,3\nno-warmup,1.587,3\n",
    );
    fs.utimesSync(path.join(dir, "results/table1.csv"), after, after);
  }
  fs.utimesSync(path.join(dir, "reproduce.log"), after, after);
  return dir;
}

export function demoJudgeInput(submissionDir: string, overrides: Partial<JudgeRunInput> = {}): JudgeRunInput {
  return {
    rubric: rubricToJudgeTree(readRubricFile(path.join(DEMO_DIR, "rubric.json"))),
    paper: {
      markdown: fs.readFileSync(path.join(DEMO_DIR, "paper.md"), "utf8"),
      addendum: fs.readFileSync(path.join(DEMO_DIR, "addendum.md"), "utf8"),
      judgeAddendum: fs.readFileSync(path.join(DEMO_DIR, "judge_addendum.md"), "utf8"),
    },
    submission: directorySubmissionFiles(submissionDir),
    codeDev: false,
    maxDepth: null,
    mode: "efficient",
    model: "o3-mini",
    parseModel: "gpt-4o-2024-08-06",
    reasoningEffort: "high",
    contextWindow: 200_000,
    maxConcurrency: 8,
    promptCacheKey: "test-submission",
    ...overrides,
  };
}
