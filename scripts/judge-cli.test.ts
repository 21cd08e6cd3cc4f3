import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGradedJson } from "@/lib/grading/graded-tree";
import { DEMO_DIR, demoSubmissionCopy } from "@/server/judge/judge-fixtures.testutil";
import { startOpenAiTestServer, tagged, type OpenAiTestServer } from "@/test/openai-test-server";
import {
  IMPORT_JUDGE_UTILS,
  PAPERBENCH_SRC_DIR,
  runPaperbenchPythonJson,
  skipWithoutPaperbenchPython,
} from "@/test/paperbench/python";
import { cliArgs } from "@/test/cli-process";

/** The CLI as a real process (the server answers in this one, so it must not block on a sync spawn). */
function runCli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgs("judge-cli", ...args), {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

let server: OpenAiTestServer;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "judge-cli-"));
beforeAll(async () => {
  server = await startOpenAiTestServer({
    verdict: (req) => ({ score: /stress test/.test(tagged(req, "criterion") ?? "") ? 0 : 1 }),
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("npm run judge -- grade", () => {
  it("grades a submission archive against an OpenAI-compatible endpoint and writes a judge output the grading import accepts", async () => {
    const dir = demoSubmissionCopy();
    const archive = path.join(tmp, "submission.tar.gz");
    await new Promise((r) => spawn("tar", ["-czf", archive, "-C", dir, "."]).on("close", r));
    // PaperBench's own test rubrics have no finegrained_task_category keys.
    const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8"));
    const strip = (n: { finegrained_task_category?: unknown; sub_tasks: unknown[] }) => {
      delete n.finegrained_task_category;
      n.sub_tasks.forEach((c) => strip(c as typeof n));
    };
    strip(rubric);
    const rubricFile = path.join(tmp, "rubric.json");
    fs.writeFileSync(rubricFile, JSON.stringify(rubric));
    const out = path.join(tmp, "grader_output.json");
    const before = server.requests.length;
    const { status, stderr } = await runCli(
      [
        "grade",
        "--rubric",
        rubricFile,
        "--submission",
        archive,
        "--paper",
        path.join(DEMO_DIR, "paper.md"),
        "--addendum",
        path.join(DEMO_DIR, "addendum.md"),
        "--out",
        out,
      ],
      { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test", JUDGE_MODEL: "o3-mini", JUDGE_CONCURRENCY: "4" },
    );
    expect(stderr).toMatch(/\[21\/21\]/);
    expect(status).toBe(0);
    const text = fs.readFileSync(out, "utf8");
    const parsed = parseGradedJson(text);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.file.kind).toBe("judge_output");
    expect(parsed.file.rootMatchesFile).toBe(true);
    expect(parsed.file.stats).toMatchObject({ leaves: 21, invalidLeaves: 0 });
    const json = JSON.parse(text);
    expect(Object.keys(json).slice(0, 8)).toEqual([
      "judge_type",
      "model_name",
      "score",
      "num_leaf_nodes",
      "num_invalid_leaf_nodes",
      "graded_at",
      "graded_task_tree",
      "token_usage",
    ]);
    expect(json.model_name).toBe("o3-mini");
    expect(json.token_usage).toEqual(server.totals());
    expect(server.requests.length - before).toBe(21);
    // The archive's dates survived extraction: results/table1.csv counts as written by reproduction.
    const ra = server.requests.find((r) => /category: Result Analysis/.test(r.messages.at(-2)!.content))!;
    expect(tagged(ra, "files")).toContain('<file path="results/table1.csv">');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(skipWithoutPaperbenchPython)(
    "--mode paperbench --max-depth 2 writes SimpleJudge's graded tree (top criteria as Subtree pseudo-leaves), which PaperBench's from_dict reads",
    async () => {
      const dir = demoSubmissionCopy();
      const out = path.join(tmp, "pb_output.json");
      const { status, stderr } = await runCli(
        [
          "grade",
          "--rubric",
          path.join(DEMO_DIR, "rubric.json"),
          "--submission",
          dir,
          "--mode",
          "paperbench",
          "--max-depth",
          "2",
          "--out",
          out,
        ],
        {
          OPENAI_BASE_URL: server.baseUrl,
          OPENAI_API_KEY: "test",
          JUDGE_MODEL: "o3-mini",
          JUDGE_CONCURRENCY: "4",
          PAPERBENCH_SRC_DIR,
        },
      );
      expect(stderr, stderr).not.toMatch(/unavailable/);
      expect(status).toBe(0);
      const json = JSON.parse(fs.readFileSync(out, "utf8"));
      const rubric = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, "rubric.json"), "utf8"));
      expect(json.graded_task_tree.sub_tasks).toHaveLength(rubric.sub_tasks.length);
      for (const top of json.graded_task_tree.sub_tasks) {
        expect(top).toMatchObject({ task_category: "Subtree", sub_tasks: [] });
        expect(Object.keys(top)).toEqual([
          "id",
          "requirements",
          "weight",
          "score",
          "valid_score",
          "task_category",
          "explanation",
          "judge_metadata",
          "sub_tasks",
        ]);
        expect(typeof top.judge_metadata.full_judge_response).toBe("string");
      }
      const read = await runPaperbenchPythonJson<{ score: number; leaves: number }>(
        [
          IMPORT_JUDGE_UTILS,
          // paperbench.rubric.tasks imports rubric-editing helpers (docker, blobfile) the tree never calls.
          "import types",
          "for _n in ('paperbench.utils', 'paperbench.rubric.utils'):",
          "    _m = types.ModuleType(_n); _m.oai_completion_with_retry = _m.get_openai_client = _m.random_id = None; sys.modules[_n] = _m",
          "from paperbench.judge.graded_task_node import GradedTaskNode",
          "t = GradedTaskNode.from_dict(data)",
          "out = {'score': t.score, 'leaves': len(t.get_leaf_nodes())}",
        ].join("\n"),
        json.graded_task_tree,
      );
      expect(read).toEqual({ score: json.score, leaves: json.num_leaf_nodes });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  );

  it("says what is missing", async () => {
    const { status, stderr } = await runCli(["grade", "--submission", tmp], { OPENAI_API_KEY: "x" });
    expect(status).toBe(2);
    expect(stderr).toMatch(/--rubric is required/);
  });
});
