import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { getEvaluationById } from "@/db/queries/evaluations";
import { DEMO_PAPER, makePaperBenchRuns } from "@/server/evaluations/paperbench-runs.testutil";
import { cliEnvironment, runCli } from "./cli.testutil";
import { cliArgs } from "@/test/cli-process";

const runEvaluationCli = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  spawnSync(process.execPath, cliArgs("evaluation-cli", ...args), {
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });

describe("npm run evaluation -- ingest, as a process on the studio's database", () => {
  const env = cliEnvironment("pglite", "cli-evaluation");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-cli-evaluation-"));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("prints one JSON object last: the root score per run in run-group order, per-run means, mean and se as computed by hand", async () => {
    const imported = runCli(env, "rubric", "import", "rubrics/demo");
    expect(imported.status, imported.stderr).toBe(0);
    const runsDir = path.join(work, "runs");
    const made = await makePaperBenchRuns(runsDir, [[1, 0], [0.5], [0, 1, 1]]);
    const scores = made.map((m) => m.score!);

    const usage = runEvaluationCli(env, "ingest", runsDir);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("--agent <name> is required");

    const out = runEvaluationCli(env, "ingest", runsDir, "--agent", "BasicAgent · cli");
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.trim().split("\n");
    const result = JSON.parse(lines[lines.length - 1]);
    const mean = (scores[0] + scores[1] + scores[2]) / 3;
    const se = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / 2) / Math.sqrt(3);
    expect(result).toEqual({
      evaluationId: expect.any(String),
      agent: "BasicAgent · cli",
      runs: 3,
      papers: { [DEMO_PAPER]: scores },
      runScores: scores,
      mean: expect.any(Number),
      se: expect.any(Number),
    });
    expect(result.mean).toBeCloseTo(mean, 15);
    expect(result.se).toBeCloseTo(se, 15);

    // Again: the agent already has these runs, a refusal with nothing written.
    const again = runEvaluationCli(env, "ingest", runsDir, "--agent", "BasicAgent · cli");
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already has run 1");

    const db = await openDatabase({ dataDir: env.DATA_DIR });
    try {
      const evaluation = await getEvaluationById(db.db, result.evaluationId);
      expect(evaluation).toMatchObject({
        agentName: "BasicAgent · cli",
        runs: 3,
        split: "custom",
        paperIds: [DEMO_PAPER],
      });
    } finally {
      await db.close();
    }
  }, 240_000);
});
