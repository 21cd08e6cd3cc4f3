import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { createEvaluation } from "@/server/evaluations/create-evaluation";
import { DEMO_PAPER } from "@/server/evaluations/paperbench-runs.testutil";
import { packDirectory } from "@/server/submissions/pack-directory";
import { cliEnvironment, runCli } from "./cli.testutil";
import { cliArgs } from "@/test/cli-process";

const runEvaluationCli = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  spawnSync(process.execPath, cliArgs("evaluation-cli", ...args), {
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!);
const DEMO_SUBMISSION = path.resolve("rubrics/demo/submission");

describe("npm run evaluation -- upload, as a process on the studio's database", () => {
  const env = cliEnvironment("pglite", "cli-evaluation-upload");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-cli-bulk-"));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("fills an evaluation from a folder, an archive and a manifest with absolute paths, printing the created cells last; a second upload of a cell and a bad manifest row exit 1 naming them", async () => {
    expect(runCli(env, "rubric", "import", "rubrics/demo").status).toBe(0);
    const db = await openDatabase({ dataDir: env.DATA_DIR });
    let evaluationId: string;
    try {
      evaluationId = (
        await createEvaluation(db, { name: "cli bulk", agent: "Bulk CLI agent", paperIds: [DEMO_PAPER], runs: 4 }, null)
      ).id;
    } finally {
      await db.close();
    }

    const usage = runEvaluationCli(env, "upload", work);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("--evaluation <id> is required");

    const folder = path.join(work, "folder");
    fs.cpSync(DEMO_SUBMISSION, path.join(folder, DEMO_PAPER, "1", "submission"), { recursive: true });
    const fromFolder = runEvaluationCli(env, "upload", folder, "--evaluation", evaluationId);
    expect(fromFolder.status, fromFolder.stderr).toBe(0);
    expect(lastJson(fromFolder.stdout)).toMatchObject({
      evaluationId,
      layout: "paper-run-folders",
      cells: [{ paperId: DEMO_PAPER, run: 1, submissionId: expect.any(String), files: 3 }],
      skipped: [],
    });

    const again = runEvaluationCli(env, "upload", folder, "--evaluation", evaluationId);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already has an archive");

    const archived = path.join(work, "archived");
    fs.cpSync(DEMO_SUBMISSION, path.join(archived, "wrapper", DEMO_PAPER, "2", "submission"), { recursive: true });
    await packDirectory(archived, path.join(work, "runs.tar.gz"));
    const fromArchive = runEvaluationCli(env, "upload", path.join(work, "runs.tar.gz"), "--evaluation", evaluationId);
    expect(fromArchive.status, fromArchive.stderr).toBe(0);
    expect(lastJson(fromArchive.stdout).cells).toMatchObject([{ paperId: DEMO_PAPER, run: 2 }]);

    const manifest = path.join(work, "cells.csv");
    fs.writeFileSync(
      manifest,
      `paper_id,run,path\n${DEMO_PAPER},3,${DEMO_SUBMISSION}\n${DEMO_PAPER},x,${DEMO_SUBMISSION}\n`,
    );
    const badRow = runEvaluationCli(env, "upload", manifest, "--evaluation", evaluationId);
    expect(badRow.status).toBe(1);
    expect(badRow.stderr).toContain("line 3, column run");
    fs.writeFileSync(manifest, `paper_id,run,path\n${DEMO_PAPER},3,${DEMO_SUBMISSION}\n`);
    const fromManifest = runEvaluationCli(env, "upload", manifest, "--evaluation", evaluationId);
    expect(fromManifest.status, fromManifest.stderr).toBe(0);
    expect(lastJson(fromManifest.stdout)).toMatchObject({
      layout: "manifest",
      cells: [{ paperId: DEMO_PAPER, run: 3, source: `cells.csv:2 (${DEMO_SUBMISSION})` }],
    });
  }, 240_000);
});
