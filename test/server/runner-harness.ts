/**
 * What the runner tests and benchmarks share: submission archives made in memory, uploads over
 * HTTP, runner processes (`runner/main.ts`, exactly as a GPU machine starts it) and polling a job.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar-stream";
import type { JobView } from "@/lib/jobs/job-view";
import { releaseJobMounts } from "@/runner/job-storage";
import { programArgs } from "@/test/cli-process";
import { pollUntil } from "@/test/poll";
import { DEMO_PAPER_ID, ROOT, api, sleep } from "./harness";

export type ArchiveFiles = Record<string, string | Buffer | { content: string; mode: number }>;

/** The demo submission's files (`rubrics/demo/submission`), as an archive's entries. */
export function demoSubmissionFiles(): ArchiveFiles {
  const demo = path.join(ROOT, "rubrics", "demo", "submission");
  return Object.fromEntries(fs.readdirSync(demo).map((name) => [name, fs.readFileSync(path.join(demo, name))]));
}

/**
 * A model judge configuration against a stand-in OpenAI server (`model`: its base URL), made through
 * `POST /api/judge/configs` as staff make one; the key is read from `apiKeyEnv` by whoever grades.
 * Returns its id.
 */
export async function createStandInJudgeConfig(
  baseUrl: string,
  cookie: string,
  fields: { name: string; model: string; apiKeyEnv: string; maxConcurrency: number },
): Promise<string> {
  const created = await api<{ config: { id: string } }>(baseUrl, cookie, "POST", "/api/judge/configs", {
    name: fields.name,
    kind: "llm",
    model: "gpt-4o-mini",
    baseUrl: fields.model,
    apiKeyEnv: fields.apiKeyEnv,
    reasoningEffort: null,
    contextWindow: 128_000,
    maxConcurrency: fields.maxConcurrency,
    requestsPerMinute: null,
    tokensPerMinute: null,
    priceInputPerM: 0.15,
    priceCachedInputPerM: 0.075,
    priceOutputPerM: 0.6,
    mode: "efficient",
    parseModel: null,
  });
  if (created.status !== 200)
    throw new Error(`the judge configuration answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body.config.id;
}

/**
 * The demo submission uploaded (code-dev, not reproduced) and one judge run of it started with a
 * stand-in model judge (`model`: the stand-in server's base URL, its key in `apiKeyEnv`): the run's id.
 */
export async function startDemoJudgeRun(
  baseUrl: string,
  cookie: string,
  opts: { agent: string; configName: string; model: string; apiKeyEnv: string; maxConcurrency: number },
): Promise<string> {
  const up = await uploadSubmission(
    baseUrl,
    { cookie },
    DEMO_PAPER_ID,
    { agent: opts.agent, run: 1, variant: "code-dev" },
    await tarGz(demoSubmissionFiles()),
  );
  if (up.status !== 201)
    throw new Error(`uploading the demo submission answered ${up.status}: ${JSON.stringify(up.body)}`);
  const configId = await createStandInJudgeConfig(baseUrl, cookie, {
    name: opts.configName,
    model: opts.model,
    apiKeyEnv: opts.apiKeyEnv,
    maxConcurrency: opts.maxConcurrency,
  });
  const started = await api<{ runs: { id: string }[] }>(baseUrl, cookie, "POST", "/api/judge/runs", {
    submissionIds: [up.body.submissionId],
    configId,
    variant: "code-dev",
  });
  if (started.status !== 200)
    throw new Error(`starting the judge run answered ${started.status}: ${JSON.stringify(started.body)}`);
  return started.body.runs[0].id;
}

/** The last 20,000 characters a child printed on stdout and stderr (for failure messages); `onStderr` hears each stderr chunk. */
function outputTail(child: ChildProcess, onStderr?: (text: string) => void): () => string {
  let log = "";
  const keep = (c: Buffer) => {
    log = (log + c.toString("utf8")).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", (c: Buffer) => {
    keep(c);
    onStderr?.(c.toString("utf8"));
  });
  return () => log;
}

export interface WorkerProcess {
  pid: number;
  /** The last of what it printed (for failure messages). */
  output(): string;
  /** A signal to its process group (default SIGKILL; SIGTERM lets it stop as `npm run worker` does on Ctrl-C). */
  kill(signal?: NodeJS.Signals): void;
}

/**
 * `npm run worker`'s program (scripts/worker.ts), as a process group of its own on `env`'s
 * database; `nodeArgs` go before it (a CPU profile), `onStderr` hears each chunk it logs.
 */
export function startWorkerProcess(
  env: Record<string, string>,
  opts: { nodeArgs?: string[]; onStderr?: (text: string) => void } = {},
): WorkerProcess {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...programArgs("worker")], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output = outputTail(child, opts.onStderr);
  return {
    pid: child.pid!,
    output,
    kill: (signal = "SIGKILL") => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // Gone.
      }
    },
  };
}

/** A .tar.gz of the given files (reproduce.sh is made executable), dated a minute ago. */
export async function tarGz(files: ArchiveFiles, opts: { level?: number } = {}): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const ended = new Promise<void>((resolve) => pack.on("end", resolve));
  for (const [name, value] of Object.entries(files)) {
    const content = typeof value === "string" || Buffer.isBuffer(value) ? value : value.content;
    const mode =
      typeof value === "string" || Buffer.isBuffer(value) ? (name.endsWith(".sh") ? 0o755 : 0o644) : value.mode;
    pack.entry({ name, mode, mtime: new Date(Date.now() - 60_000) }, content);
  }
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks), { level: opts.level });
}

/** `POST /api/papers/<id>/submissions` with the archive as the raw body. */
export async function uploadSubmission(
  baseUrl: string,
  auth: { cookie?: string; bearer?: string },
  paperId: string,
  fields: { agent: string; run: number; reproduce?: boolean; variant?: string },
  archive: Buffer,
): Promise<{
  status: number;
  body: { submissionId?: string; jobId?: string; error?: { code: string; message: string } };
}> {
  const q = new URLSearchParams({ agent: fields.agent, run: String(fields.run), name: "submission.tar.gz" });
  if (fields.reproduce) q.set("reproduce", "1");
  if (fields.variant) q.set("variant", fields.variant);
  const headers: Record<string, string> = { "content-type": "application/gzip" };
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.bearer) headers.authorization = `Bearer ${auth.bearer}`;
  const res = await fetch(`${baseUrl}/api/papers/${encodeURIComponent(paperId)}/submissions?${q}`, {
    method: "POST",
    headers,
    body: new Uint8Array(archive),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as never };
}

export interface JobAnswer {
  job: JobView;
  logTail: string;
}

/** Polls `GET /api/jobs/<id>` until `done` holds (default: a final status); bounded by the test's timeout alone (see pollUntil). */
export async function waitForJob(
  baseUrl: string,
  cookie: string,
  jobId: string,
  done: (a: JobAnswer) => boolean = (a) => !["queued", "running"].includes(a.job.status),
): Promise<JobAnswer> {
  const res = await pollUntil(
    `job ${jobId} as expected`,
    () => api<JobAnswer>(baseUrl, cookie, "GET", `/api/jobs/${jobId}`),
    (r) => r.status === 200 && done(r.body),
    100,
  );
  return res.body;
}

export interface RunnerProcess {
  name: string;
  pid: number;
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

const runnerPids = new Set<number>();
process.once("exit", () => {
  for (const pid of runnerPids) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
});

/** Starts `npm run runner`'s program as its own process group, with the token in its environment. */
export function startRunner(
  baseUrl: string,
  token: string,
  opts: { name: string; backend?: string; maxJobs?: number; env?: Record<string, string> },
): RunnerProcess {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `rubric-runner-${opts.name}-`));
  const args = [
    ...programArgs("runner"),
    "--url",
    baseUrl,
    "--name",
    opts.name,
    "--work-dir",
    workDir,
    "--max-jobs",
    String(opts.maxJobs ?? 1),
  ];
  if (opts.backend) args.push("--backend", opts.backend);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      RUNNER_TOKEN: token,
      ...opts.env,
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output = outputTail(child);
  runnerPids.add(child.pid!);
  let done = false;
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => {
      done = true;
      runnerPids.delete(child.pid!);
      // A runner killed mid-job leaves its job's disk mounted (a restarted runner would release it).
      releaseJobMounts(workDir);
      fs.rmSync(workDir, { recursive: true, force: true });
      resolve(code ?? signal ?? "exit");
    }),
  );
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(child.pid!, signal);
    } catch {
      // Gone.
    }
  };
  return {
    name: opts.name,
    pid: child.pid!,
    output,
    exited,
    kill,
    stop: async () => {
      if (done) return;
      kill("SIGTERM");
      const ended = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!ended) {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // Gone.
        }
        await exited;
      }
    },
  };
}

/** Whether any process's command line contains `marker` (a job's leftover), other than this check. */
export function processWithMarker(marker: string): string | null {
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      if (cmd.includes(marker)) return `${pid}: ${cmd}`;
    } catch {
      // Ended meanwhile.
    }
  }
  return null;
}
