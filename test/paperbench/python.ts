/**
 * Test-only: run PaperBench's real Python (from `PAPERBENCH_SRC_DIR`, default
 * `../shared/paperbench-src` from the project root; never copied into the repository) with the
 * stand-ins of `test/paperbench/standins` for packages that cannot be installed here.
 *
 * Tests that need it skip when python3 or the source is missing on a developer machine, and fail
 * in CI (CI=true), where they must run.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const PAPERBENCH_SRC_DIR = path.resolve(
  process.env.PAPERBENCH_SRC_DIR?.trim() || path.join(process.cwd(), "..", "shared", "paperbench-src"),
);

export const STANDINS_DIR = path.resolve(import.meta.dirname, "standins");

const hasPython =
  spawnSync("python3", ["-c", "import sys; assert sys.version_info >= (3, 11)"], { stdio: "ignore" }).status === 0;
const hasSource = fs.existsSync(path.join(PAPERBENCH_SRC_DIR, "paperbench", "judge", "utils.py"));

export const hasPaperbenchPython = hasPython && hasSource;

/** Skip only off CI: in CI a missing python3 or PaperBench source must fail the run. */
export const skipWithoutPaperbenchPython = !hasPaperbenchPython && process.env.CI !== "true";

/** First line of a test that needs it: names what is missing instead of a spawn error further on. */
export function requirePaperbenchPython(): void {
  if (!hasPython) throw new Error("python3 (3.11 or newer) is not on PATH; the PaperBench comparison tests need it");
  if (!hasSource) {
    throw new Error(
      `PaperBench's source is missing: no ${path.join(PAPERBENCH_SRC_DIR, "paperbench", "judge", "utils.py")} (set PAPERBENCH_SRC_DIR; the default is ../shared/paperbench-src from the project root)`,
    );
  }
}

/** The environment python3 runs in: PaperBench, its vendored packages and the stand-ins importable. */
export function paperbenchPythonEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PYTHONPATH: [STANDINS_DIR, PAPERBENCH_SRC_DIR, path.join(PAPERBENCH_SRC_DIR, "vendor")].join(path.delimiter),
    // Never write __pycache__ into the shared PaperBench checkout.
    PYTHONDONTWRITEBYTECODE: "1",
    PYTHONIOENCODING: "utf-8",
    PYTHONHASHSEED: "0",
  };
}

/**
 * Runs `python3 -c script` with `stdin` (UTF-8) and resolves with its stdout (UTF-8). Rejects with
 * stderr when it exits non-zero. Runs in a fresh empty temporary folder, so files such as drain3's
 * `drain3.ini` in the caller's folder cannot change what PaperBench's code does.
 */
export function runPaperbenchPython(script: string, stdin: string): Promise<string> {
  requirePaperbenchPython();
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "pb-python-"));
  return new Promise((resolve, reject) => {
    const child = spawn("python3", ["-c", script], {
      cwd,
      env: paperbenchPythonEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => {
      fs.rmSync(cwd, { recursive: true, force: true });
      reject(e);
    });
    child.on("close", (code) => {
      fs.rmSync(cwd, { recursive: true, force: true });
      if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else reject(new Error(`python3 exited with ${code}: ${Buffer.concat(err).toString("utf8").slice(-4000)}`));
    });
    child.stdin.on("error", () => {}); // an early exit is reported by "close"
    child.stdin.end(stdin, "utf8");
  });
}

/** Python lines that import PaperBench's judge utils (safe_read_file, sanitize_line, reduce_log, ...) with the stand-ins. */
export const IMPORT_JUDGE_UTILS = [
  "import pb_standins",
  "pb_standins.install()",
  "import paperbench.judge.utils as pb_utils",
].join("\n");

/**
 * One python3 process for a whole batch: `data` (JSON, lone surrogates kept as `\udXXX` escapes) is
 * bound to `data`, `body` must set `out`, which comes back through `json.dumps` (ASCII escapes, so
 * any str survives the trip).
 */
export async function runPaperbenchPythonJson<T>(body: string, data: unknown): Promise<T> {
  const script = [
    "import json, sys",
    "data = json.loads(sys.stdin.read())",
    body,
    "sys.stdout.write(json.dumps(out))",
  ].join("\n");
  return JSON.parse(await runPaperbenchPython(script, JSON.stringify(data))) as T;
}
