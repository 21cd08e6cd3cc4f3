import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipWithoutData } from "@/lib/rubric/paperbench-data.testutil";
import { cloneGradedTree, parseGradedJson, preorder, recomputeScores } from "./graded-tree";
import { gradingFile, readGradingText, referenceMetrics } from "./grading-data.testutil";
import type { MetricSummary } from "@/lib/judge/eval/metrics";
import { serializeGradedTree, serializeJudgeOutput } from "./serialize";
import type { GradedNode } from "./types";
import { cliArgs } from "@/test/cli-process";

// The same entry point as `npm run grading`, bundled once (test/cli-process.ts); one test goes through npm run.
const runCli = (...args: string[]) =>
  spawnSync(process.execPath, cliArgs("cli", "grading", ...args), {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });

const KEYS = ["accuracy", "precision", "recall", "f1", "num_samples", "num_positives", "num_negatives"];

const expected = (samples: { t: number; p: number }[]) =>
  referenceMetrics(
    samples.map((s) => s.t),
    samples.map((s) => s.p),
  );

describe.skipIf(skipWithoutData)("npm run grading -- eval", () => {
  let dir: string;
  let human: GradedNode;
  let judge: GradedNode;
  let judgeFile: string;
  let bareJudgeFile: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "grading-cli-"));
    const parsed = parseGradedJson(readGradingText("stay-on-topic-with-classifier-free-guidance"));
    if (!parsed.ok) throw new Error("unreadable human grading");
    human = parsed.file.tree;
    // A judge: every 4th leaf flipped, every 9th invalid, all Result Analysis leaves said 1.
    judge = cloneGradedTree(human);
    let k = 0;
    for (const n of preorder(judge)) {
      if (n.sub_tasks.length > 0) continue;
      k++;
      if (k % 9 === 0) {
        n.valid_score = false;
        n.score = 0;
      } else if (n.task_category === "Result Analysis") n.score = 1;
      else if (k % 4 === 0) n.score = 1 - n.score;
    }
    judge = recomputeScores(judge);
    judgeFile = path.join(dir, "grader_output.json");
    fs.writeFileSync(
      judgeFile,
      serializeJudgeOutput(judge, { judgeType: "simple", gradedAt: "2025-01-01T00-00-00-GMT" }),
    );
    bareJudgeFile = path.join(dir, "judge-bare.json");
    fs.writeFileSync(bareJudgeFile, serializeGradedTree(judge));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("prints overall and stratified metrics, matched by leaf id, invalid leaves left out", () => {
    const out = runCli("eval", gradingFile("stay-on-topic-with-classifier-free-guidance"), judgeFile);
    expect(out.status).toBe(0);
    expect(out.stderr).toMatch(/^note: \d+ invalid leaf\/leaves of .* left out\n$/);
    const json = JSON.parse(out.stdout);
    expect(Object.keys(json)).toEqual(["overall", "stratified"]);
    expect(Object.keys(json.overall)).toEqual(KEYS);
    // Samples from first principles.
    const humanLeaves = new Map(
      preorder(human)
        .filter((n) => n.sub_tasks.length === 0)
        .map((n) => [n.id, n]),
    );
    const samples = preorder(judge)
      .filter((n) => n.sub_tasks.length === 0 && n.valid_score)
      .map((n) => ({ category: n.task_category, t: humanLeaves.get(n.id)!.score, p: n.score }));
    const close = (actual: Record<string, number>, wanted: MetricSummary) => {
      for (const key of KEYS) expect(actual[key]).toBeCloseTo(wanted[key as keyof MetricSummary], 12);
    };
    close(json.overall, expected(samples));
    expect(Object.keys(json.stratified)).toEqual(["Code Development", "Code Execution", "Result Analysis"]);
    for (const category of Object.keys(json.stratified)) {
      expect(Object.keys(json.stratified[category])).toEqual(KEYS);
      close(json.stratified[category], expected(samples.filter((s) => s.category === category)));
    }
    // The judge said 1 on every Result Analysis leaf: class 0 was never predicted there.
    const ra = samples.filter((s) => s.category === "Result Analysis");
    expect(ra.some((s) => s.t === 0)).toBe(true);
    expect(json.stratified["Result Analysis"].precision).toBeCloseTo(expected(ra).precision, 12);
  });

  it("reads a bare judge tree the same as a wrapped one, through npm run", () => {
    const wrapped = runCli("eval", gradingFile("stay-on-topic-with-classifier-free-guidance"), judgeFile);
    const bare = spawnSync(
      "npm",
      ["run", "-s", "grading", "--", "eval", gradingFile("stay-on-topic-with-classifier-free-guidance"), bareJudgeFile],
      {
        encoding: "utf8",
      },
    );
    expect(bare.status).toBe(0);
    expect(bare.stdout).toBe(wrapped.stdout);
  });

  it("writes Python floats: a grading against itself is all 1.0", () => {
    const self = gradingFile("all-in-one");
    const out = runCli("eval", self, self);
    expect(out.status).toBe(0);
    expect(out.stderr).toBe("");
    expect(out.stdout).toContain(
      '\n    "accuracy": 1.0,\n    "precision": 1.0,\n    "recall": 1.0,\n    "f1": 1.0,\n    "num_samples": 174,',
    );
  });

  it("exits 1 with the path of the problem for a malformed file, 1 for an unreadable one, 2 for bad usage", () => {
    const broken = JSON.parse(fs.readFileSync(judgeFile, "utf8"));
    broken.graded_task_tree.sub_tasks[3].score = "1";
    const brokenFile = path.join(dir, "broken.json");
    fs.writeFileSync(brokenFile, JSON.stringify(broken));
    const malformed = runCli("eval", gradingFile("pinn"), brokenFile);
    expect(malformed.status).toBe(1);
    expect(malformed.stdout).toBe("");
    expect(malformed.stderr).toContain(
      `${brokenFile}: graded_task_tree.sub_tasks[3].score: must be a number, got a string`,
    );

    const notJson = path.join(dir, "not.json");
    fs.writeFileSync(notJson, "{ nope");
    const syntax = runCli("eval", notJson, judgeFile);
    expect(syntax.status).toBe(1);
    expect(syntax.stderr).toMatch(/not\.json: \(root\): not valid JSON: .* at line 1, column 3/);

    const missing = runCli("eval", path.join(dir, "missing.json"), judgeFile);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("missing.json: cannot read the file (ENOENT");

    const usage = runCli("eval", judgeFile);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("usage:");
  });
});
