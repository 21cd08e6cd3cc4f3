import fs from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { CREATION_TIME_FILE } from "@/lib/jobs/outputs-index";
import type { FinalJobStatus } from "@/lib/jobs/states";
import type { ReproduceSettings } from "@/lib/runner/protocol";
import type { ReproductionMetadata } from "@/lib/jobs/reproduction-metadata";
import type { JobBackend, JobExit } from "./backends/job-backend";
import { DEFAULT_MAX_LOG_BYTES, LogCap } from "./log-cap";
import { diskFull } from "./job-storage";
import { spawnLimits } from "./job-limits";
import { SecretMasker } from "./secret-masker";

export { CREATION_TIME_FILE };
export const REPRODUCE_SCRIPT = "reproduce.sh";
export const REPRODUCE_LOG = "reproduce.log";
export const MISSING_SCRIPT_REASON = "reproduce.sh not found at the submission's root";

/**
 * The command every backend runs (local, sandbox, docker: it is their `command`), as PaperBench's
 * `run_reproduce_script` does: `rm -rf venv .venv` first (a submission's venv holds links to a
 * Python that is not there), then `bash reproduce.sh`, stderr into stdout. Unlike PaperBench's
 * `| tee`, nothing stands between the script and its exit status.
 */
export const REPRODUCE_COMMAND: readonly string[] = [
  "bash",
  "-c",
  `exec 2>&1; rm -rf venv .venv && exec bash ${REPRODUCE_SCRIPT}`,
];

/** `reproduce.log.creation_time` as PaperBench writes it (`date +%s`): whole seconds since the epoch, a newline. Its judge reads it with `int()`. */
export function creationTimeText(nowMs: number): string {
  return `${Math.floor(nowMs / 1000)}\n`;
}

export interface ReproduceOptions {
  backend: JobBackend;
  /** The job's own directory: the executed copy goes to `submission/`, the scratch space to `scratch/`. */
  jobDir: string;
  /** The pristine extracted submission; every run starts from a fresh copy of it. */
  sourceRoot: string;
  settings: ReproduceSettings;
  gpuIndices: number[];
  /** Names for the metadata: `0: NVIDIA H100 80GB`. */
  gpuNames: string[];
  runnerName: string;
  attempt: number;
  /** Unique per job attempt: names the processes and containers of its runs. */
  spawnName: string;
  /** reproduce.sh's output and the runner's notes, secrets masked: the live log. */
  output(text: string): void;
  /** Resolves when staff cancel the job. */
  cancelled: Promise<void>;
  killGraceMs: number;
  /** Each run's reproduce.log is cut here, with a marker line, as the live log is (default 1 GiB). */
  maxLogBytes?: number;
  /** Set when `jobDir` lies on a filesystem of this size made for the job (`openJobStorage`): a full one is the disk limit. */
  diskLimitMiB?: number;
}

export interface ReproduceResult {
  status: FinalJobStatus;
  exitCode: number | null;
  reason: string | null;
  metadata: ReproductionMetadata;
  /** Wall-clock seconds of every run together (a salvage retry included). */
  durationS: number;
  /** The executed copy, for the outputs archive. */
  submissionDir: string;
  /**
   * Whether the submission was executed as PaperBench executes it (reproduce.sh ran, whatever its
   * end, or there was none to run): then its executed copy is what the judge reads. False when the
   * backend could not set the run up, so nothing of the job ran: there is nothing to judge.
   */
  ran: boolean;
}

interface RunOutcome {
  exit: JobExit;
  timedOut: boolean;
  cancelled: boolean;
  seconds: number;
}

/**
 * The most kept of each of our own commands' output (ls -laR, git log, git status): it rides in the
 * completion's metadata, which must stay well under the studio's 16 MiB body limit.
 */
const MAX_CAPTURE_BYTES = 512 * 1024;

/**
 * One reproduction, with PaperBench's semantics (a fresh copy, `ls` before and after, git log and
 * status, reproduce.log and its creation time, `bash reproduce.sh`, a wall-clock timeout, the
 * salvage retry) and its faults fixed: the exit status is kept (no `tee` without pipefail), a
 * missing script is a clear failure, only a failed short run is retried, and no process survives.
 */
export async function reproduce(opts: ReproduceOptions): Promise<ReproduceResult> {
  const submissionDir = path.join(opts.jobDir, "submission");
  const started = Date.now();
  let cancelled = false;
  void opts.cancelled.then(() => {
    cancelled = true;
  });
  const note = (text: string) => opts.output(`[runner] ${text}\n`);
  const retried: ReproductionMetadata["retried_results"] = [];
  let spawnCount = 0;
  const spawnName = () => `${opts.spawnName}-${spawnCount++}`;

  /** Runs a short command of ours (ls, git) in the job's environment and answers its masked output. */
  async function capture(command: string[]): Promise<{ ok: boolean; text: string }> {
    const proc = opts.backend.spawnJob({ ...spawnBase(), command, name: spawnName() });
    let text = "";
    const decoder = new StringDecoder("utf8");
    // Masked before it is cut, so a cut never leaves half a secret in the clear.
    const captureMasker = new SecretMasker(Object.values(opts.settings.secrets));
    const cap = new LogCap(MAX_CAPTURE_BYTES, `the output of ${command[0]}`);
    const keep = (d: Buffer) => (text += cap.take(captureMasker.push(decoder.write(d))));
    proc.stdout.on("data", keep);
    proc.stderr.on("data", keep);
    const exit = await proc.wait();
    text += cap.take(captureMasker.push(decoder.end()) + captureMasker.end());
    return { ok: exit.exitCode === 0, text };
  }

  const limits = spawnLimits(opts.settings);
  function spawnBase() {
    return {
      dir: submissionDir,
      scratchDir: path.join(opts.jobDir, "scratch"),
      secrets: opts.settings.secrets,
      gpuIndices: opts.gpuIndices,
      network: opts.settings.network,
      limits,
    };
  }

  function freshCopy(): void {
    fs.rmSync(submissionDir, { recursive: true, force: true });
    fs.rmSync(path.join(opts.jobDir, "scratch"), { recursive: true, force: true });
    fs.cpSync(opts.sourceRoot, submissionDir, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    fs.mkdirSync(path.join(opts.jobDir, "scratch"), { recursive: true });
  }

  async function runScript(): Promise<RunOutcome> {
    const creationTime = writeOwnFile(path.join(submissionDir, CREATION_TIME_FILE));
    fs.writeSync(creationTime, creationTimeText(Date.now()));
    fs.closeSync(creationTime);
    const logFile = writeOwnFile(path.join(submissionDir, REPRODUCE_LOG));
    const runMasker = new SecretMasker(Object.values(opts.settings.secrets));
    // reproduce.log is written by the runner, outside any sandbox limit: it is capped like the live log.
    const logCap = new LogCap(opts.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES, REPRODUCE_LOG);
    const emit = (text: string) => {
      if (text === "") return;
      const kept = logCap.take(text);
      if (kept !== "") fs.writeSync(logFile, kept);
      opts.output(text);
    };
    const runStarted = Date.now();
    // One stream for both, in the order written: what `2>&1 | tee` gives, without losing the status.
    const proc = opts.backend.spawnJob({ ...spawnBase(), command: [...REPRODUCE_COMMAND], name: spawnName() });
    const decoder = new StringDecoder("utf8");
    const onData = (d: Buffer) => emit(runMasker.push(decoder.write(d)));
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
    let timedOut = false;
    let stopping: Promise<void> | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      note(`reproduce.sh ran past its timeout of ${opts.settings.timeoutS} s: stopping it`);
      stopping ??= proc.kill(opts.killGraceMs);
    }, opts.settings.timeoutS * 1000);
    void opts.cancelled.then(() => {
      if (timedOut) return;
      note("cancelled: stopping reproduce.sh");
      stopping ??= proc.kill(opts.killGraceMs);
    });
    try {
      const exit = await proc.wait();
      await stopping;
      emit(runMasker.push(decoder.end()) + runMasker.end());
      return { exit, timedOut, cancelled: cancelled && !timedOut, seconds: (Date.now() - runStarted) / 1000 };
    } finally {
      clearTimeout(timer);
      fs.closeSync(logFile);
    }
  }

  freshCopy();
  const before = await capture(["ls", "-laR", "."]);
  const gitCommand = (...args: string[]) => [
    "git",
    "-c",
    "safe.directory=*",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "--no-pager",
    ...args,
  ];
  const isGitRepo =
    fs.existsSync(path.join(submissionDir, ".git")) &&
    (await capture(gitCommand("rev-parse", "--is-inside-work-tree"))).text.trim() === "true";
  const gitLog = isGitRepo ? (await capture(gitCommand("log"))).text : null;
  const scriptExists =
    fs.lstatSync(path.join(submissionDir, REPRODUCE_SCRIPT), { throwIfNoEntry: false })?.isFile() ?? false;

  const metadata = (run: RunOutcome | null, after: string | null, gitStatus: string | null): ReproductionMetadata => ({
    is_valid_git_repo: isGitRepo,
    git_log: gitLog,
    repro_script_exists: scriptExists,
    files_before_reproduce: before.text,
    files_after_reproduce: after,
    timedout: run?.timedOut ?? false,
    retried_results: retried,
    repro_execution_time: run?.seconds ?? null,
    git_status_after_reproduce: gitStatus,
    exit_code: run?.exit.exitCode ?? null,
    runner: opts.runnerName,
    gpus: opts.gpuNames,
    backend: opts.backend.name,
    attempt: opts.attempt,
  });

  if (!scriptExists) {
    note(MISSING_SCRIPT_REASON);
    return {
      status: "failed",
      exitCode: null,
      reason: MISSING_SCRIPT_REASON,
      metadata: metadata(null, null, null),
      durationS: (Date.now() - started) / 1000,
      submissionDir,
      ran: true,
    };
  }

  let run = await runScript();
  const failedShort = (r: RunOutcome) =>
    !r.timedOut && !r.cancelled && r.exit.exitCode !== 0 && r.seconds < opts.settings.salvageRetryBelowS;
  if (failedShort(run) && !cancelled) {
    note(
      `reproduce.sh failed after ${run.seconds.toFixed(1)} s (under ${opts.settings.salvageRetryBelowS} s): salvage retry on a fresh copy`,
    );
    retried.push({ repro_execution_time: run.seconds, timedout: run.timedOut, exit_code: run.exit.exitCode });
    freshCopy();
    run = await runScript();
  }

  const after = (await capture(["ls", "-laR", "."])).text;
  const gitStatus = isGitRepo ? (await capture(gitCommand("status"))).text : null;
  const durationS = (Date.now() - started) / 1000;
  if (opts.diskLimitMiB !== undefined && !run.exit.limitHit && diskFull(submissionDir))
    run.exit.limitHit = `the disk limit of ${opts.diskLimitMiB} MiB`;
  const outcome = describe(run, opts.settings.timeoutS);
  if (outcome.status === "failed" && (run.exit.limitHit || run.exit.setupError)) note(outcome.reason!);
  return { ...outcome, metadata: metadata(run, after, gitStatus), durationS, submissionDir, ran: !run.exit.setupError };
}

function describe(
  run: RunOutcome,
  timeoutS: number,
): { status: FinalJobStatus; exitCode: number | null; reason: string | null } {
  if (run.timedOut)
    return {
      status: "timed_out",
      exitCode: null,
      reason: `reproduce.sh ran past its timeout of ${timeoutS} s and was stopped`,
    };
  if (run.cancelled) return { status: "cancelled", exitCode: null, reason: "cancelled by staff" };
  const { exitCode, signal, limitHit, setupError } = run.exit;
  if (setupError) return { status: "failed", exitCode, reason: setupError };
  // A job that hit a limit fails for that reason, whatever its status: its results may be cut short.
  if (limitHit) return { status: "failed", exitCode, reason: `reproduce.sh hit ${limitHit}` };
  if (exitCode === 0) return { status: "succeeded", exitCode: 0, reason: null };
  if (exitCode === null)
    return { status: "failed", exitCode: null, reason: `reproduce.sh was killed by ${signal ?? "a signal"}` };
  return { status: "failed", exitCode, reason: `reproduce.sh exited with status ${exitCode}` };
}

/**
 * A file the runner writes into the submission's copy (as the host's user, outside the sandbox): a
 * new file in place of whatever the submission put under that name, opened without following a
 * link, so a submission's `reproduce.log -> …` can never point the runner's write elsewhere.
 */
function writeOwnFile(file: string): number {
  fs.rmSync(file, { force: true, recursive: true });
  return fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    0o644,
  );
}
