/**
 * The prompt loader reads the same texts PaperBench's own modules hold: constants.py imported as a
 * module and tasks.py executed (with stand-ins for the packages it imports), by CPython.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPaperbenchPrompts, paperbenchModeAvailability, paperbenchSrcDir } from "./paperbench-prompts";
import { TEMPLATE_EXPRESSIONS } from "@/lib/judge/paperbench/prompts";
import {
  PAPERBENCH_SRC_DIR,
  requirePaperbenchPython,
  runPaperbenchPythonJson,
  skipWithoutPaperbenchPython,
} from "@/test/paperbench/python";

const temp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-prompts-"));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

/** A PaperBench-like folder in a temporary directory, from the real files (edited by `edit` and `editSimple`). */
function fakeSource(
  name: string,
  edit: (constants: string) => string,
  editSimple: (simple: string) => string = (s) => s,
): string {
  const dir = path.join(temp, name);
  fs.mkdirSync(path.join(dir, "paperbench", "judge"), { recursive: true });
  fs.mkdirSync(path.join(dir, "paperbench", "rubric"), { recursive: true });
  const src = path.join(PAPERBENCH_SRC_DIR, "paperbench");
  fs.writeFileSync(
    path.join(dir, "paperbench", "judge", "constants.py"),
    edit(fs.readFileSync(path.join(src, "judge", "constants.py"), "utf8")),
  );
  fs.copyFileSync(path.join(src, "rubric", "tasks.py"), path.join(dir, "paperbench", "rubric", "tasks.py"));
  fs.writeFileSync(
    path.join(dir, "paperbench", "judge", "simple.py"),
    editSimple(fs.readFileSync(path.join(src, "judge", "simple.py"), "utf8")),
  );
  return dir;
}

const PYTHON_PROMPTS = `
import sys, types
def stub(name):
    m = types.ModuleType(name)
    m.__getattr__ = lambda attr: type(attr, (), {})
    sys.modules[name] = m
for name in ["openai", "openai.types", "openai.types.chat", "paperbench.rubric.utils", "paperbench.utils"]:
    stub(name)
import paperbench.judge.constants as c
import paperbench.rubric.tasks as t
out = {
    "judgeTaskPrompt": {"codeOnly": c.build_judge_task_prompt(True), "full": c.build_judge_task_prompt(False)},
    "gradingPrompt": {"binary": c.GRADING_PROMPT(False), "continuous": c.GRADING_PROMPT(True)},
    "criterionPrompt": c.CRITERION_PROMPT,
    "fileRankingPrompt": c.FILE_RANKING_PROMPT,
    "taskCategoryQuestions": t.TASK_CATEGORY_QUESTIONS,
}
`;

describe.skipIf(skipWithoutPaperbenchPython)("loadPaperbenchPrompts", () => {
  it("reads what PaperBench's modules hold, and its COMMIT", async () => {
    requirePaperbenchPython();
    const expected = await runPaperbenchPythonJson<Record<string, unknown>>(PYTHON_PROMPTS, null);
    const prompts = await loadPaperbenchPrompts(PAPERBENCH_SRC_DIR);
    // simple.py's own texts are proven where they are used: the parity test sends them, rendered,
    // byte for byte as SimpleJudge does. Here: each was found, with the expressions it fills.
    const { commit, sourcePath, simpleJudge, ...texts } = prompts;
    expect(texts).toEqual(expected);
    for (const [name, exprs] of Object.entries(TEMPLATE_EXPRESSIONS)) {
      const used = simpleJudge[name as keyof typeof TEMPLATE_EXPRESSIONS]
        .filter((part) => typeof part !== "string")
        .map((part) => (part as { expr: string }).expr);
      expect(used.length, name).toBeGreaterThan(0);
      for (const expr of used) expect(exprs, name).toContain(expr);
    }
    expect(simpleJudge.scoreInstruction.binary).not.toBe(simpleJudge.scoreInstruction.continuous);
    expect(sourcePath).toBe(path.join(PAPERBENCH_SRC_DIR, "paperbench", "judge", "constants.py"));
    expect(commit).toBe(fs.readFileSync(path.join(PAPERBENCH_SRC_DIR, "COMMIT"), "utf8").trim());
    expect(Object.keys(prompts.taskCategoryQuestions)).toContain("Code Development");
    expect(prompts.judgeTaskPrompt.full.length).toBeGreaterThan(prompts.judgeTaskPrompt.codeOnly.length);
    // Read once per folder: the same promise again.
    expect(loadPaperbenchPrompts(PAPERBENCH_SRC_DIR)).toBe(loadPaperbenchPrompts(PAPERBENCH_SRC_DIR));
  });

  it("accepts the paperbench package folder itself", async () => {
    requirePaperbenchPython();
    const viaPackage = await loadPaperbenchPrompts(path.join(PAPERBENCH_SRC_DIR, "paperbench"));
    const viaRoot = await loadPaperbenchPrompts(PAPERBENCH_SRC_DIR);
    expect(viaPackage).toEqual(viaRoot);
  });

  it("says which path is missing, and the mode is then unavailable", async () => {
    const missing = path.join(temp, "nowhere");
    await expect(loadPaperbenchPrompts(missing)).rejects.toThrow(
      path.join(missing, "paperbench", "judge", "constants.py"),
    );
    const availability = await paperbenchModeAvailability(missing);
    expect(availability.ok).toBe(false);
    if (!availability.ok) expect(availability.reason).toContain("PAPERBENCH_SRC_DIR");
  });

  it("names a missing prompt, a broken file and a missing python3", async () => {
    requirePaperbenchPython();
    const noRanking = fakeSource("no-ranking", (s) => s.replace(/^FILE_RANKING_PROMPT\b/m, "OTHER_PROMPT"));
    await expect(loadPaperbenchPrompts(noRanking)).rejects.toThrow(/constants\.py has no FILE_RANKING_PROMPT/);
    const broken = fakeSource("broken", (s) => s + "\nraise RuntimeError('boom')\n");
    await expect(loadPaperbenchPrompts(broken)).rejects.toThrow(/running .*constants\.py failed: RuntimeError: boom/);
    // A fixed file is read again (failures are not cached; the files' times are part of the key).
    fs.writeFileSync(
      path.join(broken, "paperbench", "judge", "constants.py"),
      fs.readFileSync(path.join(PAPERBENCH_SRC_DIR, "paperbench", "judge", "constants.py")),
    );
    expect((await loadPaperbenchPrompts(broken)).commit).toBeNull();
    // A simple.py text that fills something the port does not know: the mode is unavailable, saying which.
    const unknownExpr = fakeSource(
      "unknown-expr",
      (s) => s,
      (s) => s.replace("<files>\\n{relevant_files}", "<files>\\n{relevant_files.upper()}"),
    );
    await expect(loadPaperbenchPrompts(unknownExpr)).rejects.toThrow(
      /simple\.py's files text uses \{relevant_files\.upper\(\)\}/,
    );
    const noPython = fakeSource("no-python", (s) => s);
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(temp, "empty-bin");
    try {
      await expect(loadPaperbenchPrompts(noPython)).rejects.toThrow(/python3 is not on PATH/);
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it("defaults to ../shared/paperbench-src from the project root, or PAPERBENCH_SRC_DIR", () => {
    expect(paperbenchSrcDir({})).toBe(path.resolve(process.cwd(), "..", "shared", "paperbench-src"));
    expect(paperbenchSrcDir({ PAPERBENCH_SRC_DIR: " /x/y " })).toBe("/x/y");
  });
});
