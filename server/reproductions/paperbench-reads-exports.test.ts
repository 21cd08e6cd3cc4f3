/**
 * PaperBench's own Python reads the studio's reproduction exports (issue 20, "Done when"): a real
 * reproduction (the runner's `reproduce`, local backend) of a submission that writes results and
 * exits 1 (retried once by the salvage rule), packed as the runner packs it, exported as the studio
 * exports it (`submission_executed_metadata.json`, `submission_executed.tar.gz`); then
 * `ReproductionMetadata.from_dict` loads the metadata and a `Judge`'s `read_repro_files_content`
 * reads the executed submission (its `int()` of reproduce.log.creation_time included), from
 * PAPERBENCH_SRC_DIR (default ../shared/paperbench-src from the project root), never copied here.
 * Skipped without python3 or the source locally; a failure in CI.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, describe, expect, it } from "vitest";
import { executedMetadataJson, RETRIED_LOG_NOTE } from "@/lib/jobs/executed-metadata";
import { localBackend } from "@/runner/backends/local";
import { buildOutputsArchive } from "@/runner/outputs-archive";
import { CREATION_TIME_FILE, reproduce } from "@/runner/reproduce";
import { EXECUTED_SUBMISSION_FILE, executedSubmissionArchive } from "./export-executed-submission";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SRC = process.env.PAPERBENCH_SRC_DIR ?? path.resolve(process.cwd(), "../shared/paperbench-src");
const hasPython = spawnSync("python3", ["--version"]).status === 0;
const hasSource = fs.existsSync(path.join(SRC, "paperbench", "nano", "structs.py"));
if (process.env.CI && !(hasPython && hasSource))
  throw new Error(
    `PaperBench's reading of the exports needs python3 and its source at ${SRC} (PAPERBENCH_SRC_DIR) in CI`,
  );

const work = fs.mkdtempSync(path.join(os.tmpdir(), "rs-pb-exports-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe.runIf(hasPython && hasSource)("PaperBench's code reads the studio's reproduction exports", () => {
  it("loads the metadata with its from_dict and reads the executed submission as its judge does", async () => {
    const source = path.join(work, "source");
    fs.mkdirSync(source);
    fs.writeFileSync(
      path.join(source, "reproduce.sh"),
      'echo "training step 1"\nmkdir -p results\necho "method,score" > results/table.csv\necho "final accuracy 0.91"\nexit 1\n',
    );
    fs.writeFileSync(path.join(source, "train.py"), "print('hello')\n");
    fs.mkdirSync(path.join(source, "venv"));
    fs.writeFileSync(path.join(source, "venv", "pyvenv.cfg"), "home = /nowhere\n");
    let log = "";
    const jobDir = path.join(work, "job");
    fs.mkdirSync(jobDir);
    const result = await reproduce({
      backend: localBackend(),
      jobDir,
      sourceRoot: source,
      settings: {
        timeoutS: 60,
        gpus: 0,
        network: false,
        secrets: {},
        salvageRetryBelowS: 600,
        maxOutputFileBytes: 10 * 1024 * 1024,
      },
      gpuIndices: [],
      gpuNames: [],
      runnerName: "test-runner",
      attempt: 1,
      spawnName: `pb${Date.now()}`,
      output: (t) => (log += t),
      cancelled: new Promise(() => undefined),
      killGraceMs: 1000,
    });
    expect(result).toMatchObject({ status: "failed", exitCode: 1, ran: true });
    expect(result.metadata.retried_results).toHaveLength(1);
    const creation = fs.readFileSync(path.join(result.submissionDir, CREATION_TIME_FILE), "utf8");
    expect(creation).toMatch(/^\d+\n$/);

    const outputs = path.join(work, "outputs.tar.gz");
    await buildOutputsArchive(result.submissionDir, outputs, { maxFileBytes: 10 * 1024 * 1024, secrets: [] });
    const executed = path.join(work, EXECUTED_SUBMISSION_FILE);
    await pipeline(executedSubmissionArchive(fs.createReadStream(outputs)), fs.createWriteStream(executed));
    const metadataFile = path.join(work, "submission_executed_metadata.json");
    fs.writeFileSync(metadataFile, executedMetadataJson(result.metadata, log, EXECUTED_SUBMISSION_FILE));

    const py = spawnSync(
      "python3",
      [path.join(ROOT, "test/paperbench/read_repro_export.py"), metadataFile, executed, work],
      {
        encoding: "utf8",
        env: {
          ...process.env,
          PYTHONPATH: [path.join(ROOT, "test/paperbench/standins"), SRC, path.join(SRC, "vendor")].join(path.delimiter),
          PYTHONDONTWRITEBYTECODE: "1",
        },
      },
    );
    expect(py.status, py.stderr).toBe(0);
    const read = JSON.parse(py.stdout) as {
      metadata: {
        repro_script_exists: boolean;
        timedout: boolean;
        repro_log: string;
        retried_results: { repro_log: string }[];
        executed_submission: string | null;
      };
      judge: { reproduce_sh: string; reproduce_log: string; creation_time: number };
      files: string[];
    };
    expect(read.metadata).toMatchObject({
      repro_script_exists: true,
      timedout: false,
      executed_submission: EXECUTED_SUBMISSION_FILE,
    });
    expect(read.metadata.repro_log).toContain("final accuracy 0.91");
    expect(read.metadata.retried_results).toEqual([expect.objectContaining({ repro_log: RETRIED_LOG_NOTE })]);
    // Its judge's int() of the file, not its fallback to the log's mtime or now.
    expect(read.judge.creation_time).toBe(Number(creation.trim()));
    expect(read.judge.reproduce_sh).toContain("final accuracy");
    expect(read.judge.reproduce_log).toContain("final accuracy 0.91");
    // The submission PaperBench places at /submission: the results, the log, no venv.
    expect(read.files).toEqual(
      expect.arrayContaining(["reproduce.sh", "reproduce.log", CREATION_TIME_FILE, "results/table.csv", "train.py"]),
    );
    expect(read.files.some((f) => f.startsWith("venv/"))).toBe(false);
  });
});
