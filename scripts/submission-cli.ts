/**
 * Uploads a submission to a running studio over HTTP (never its database), with a personal API
 * token from STUDIO_TOKEN (`npm run user -- token <email>` makes one), and optionally waits for its
 * reproduction:
 *
 *   npm run submission -- upload <archive | dir> --paper <id> --agent <name> --run <n>
 *                          [--variant code-dev] [--reproduce] [--wait] [--replace] [--evaluation <id>] [--url <studio>]
 *
 * A directory is packed to a .tar.gz first (`.git` included: PaperBench reads the git log). Progress
 * goes to stderr; the last line on stdout is one JSON object:
 * `{ submissionId, jobId, status, exitCode, durationS, logTail, outputFiles }` (keys present when known).
 * Exit 0 on success, 1 on a refused upload or a job that did not succeed, 2 on a usage error.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Transform } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { packDirectory } from "@/server/submissions/pack-directory";
import { isFinalJobStatus, type JobStatus } from "@/lib/jobs/states";
import { answerOf, studioFetch, StudioError } from "./studio-http";

export class UsageError extends Error {}

export const USAGE = `usage:
  npm run submission -- upload <archive.tar.gz | .tar | .zip | dir> --paper <id> --agent <name> --run <n>
                         [--variant full|code-dev] [--reproduce] [--wait] [--replace] [--evaluation <id>] [--url <studio>]
  --evaluation: the evaluation this run belongs to (its agent, variant, a run within its N).
  The token comes from STUDIO_TOKEN (npm run user -- token <email>); the studio from --url, STUDIO_URL or http://127.0.0.1:3000.`;

export interface UploadArgs {
  source: string;
  paper: string;
  agent: string;
  run: number;
  variant: "full" | "code-dev";
  reproduce: boolean;
  wait: boolean;
  replace: boolean;
  /** The evaluation the run belongs to. */
  evaluation?: string;
  url: string;
  token: string;
}

/** The command line and environment, checked: a UsageError (exit 2) says what is wrong. */
export function parseSubmissionArgs(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
): UploadArgs {
  const [command, ...rest] = argv;
  if (command !== "upload") throw new UsageError(command ? `unknown command "${command}"` : "no command");
  let parsed;
  try {
    parsed = parseArgs({
      args: [...rest],
      allowPositionals: true,
      options: {
        paper: { type: "string" },
        agent: { type: "string" },
        run: { type: "string" },
        variant: { type: "string", default: "full" },
        reproduce: { type: "boolean", default: false },
        wait: { type: "boolean", default: false },
        replace: { type: "boolean", default: false },
        evaluation: { type: "string" },
        url: { type: "string" },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError("upload takes one archive or directory");
  if (!values.paper) throw new UsageError("--paper <id> is required");
  if (!values.agent?.trim()) throw new UsageError("--agent <name> is required");
  if (!values.run || !/^\d+$/.test(values.run) || Number(values.run) < 1)
    throw new UsageError("--run must be a whole number, 1 or more");
  if (values.variant !== "full" && values.variant !== "code-dev")
    throw new UsageError("--variant must be full or code-dev");
  if (values.reproduce && values.variant === "code-dev")
    throw new UsageError("a code-dev submission is never reproduced: drop --reproduce");
  if (values.wait && !values.reproduce) throw new UsageError("--wait waits for the reproduction: it needs --reproduce");
  const token = env.STUDIO_TOKEN?.trim();
  if (!token)
    throw new UsageError(
      "STUDIO_TOKEN is not set: make a token with `npm run user -- token <email>` and export STUDIO_TOKEN=<token>",
    );
  const url = (values.url ?? env.STUDIO_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]/.test(url))
    throw new UsageError(`--url must be the studio's http(s):// address, not "${url}"`);
  return {
    source: positionals[0],
    paper: values.paper,
    agent: values.agent.trim(),
    run: Number(values.run),
    variant: values.variant,
    reproduce: values.reproduce,
    wait: values.wait,
    replace: values.replace,
    ...(values.evaluation ? { evaluation: values.evaluation } : {}),
    url,
    token,
  };
}

export interface UploadAnswer {
  submissionId: string;
  jobId?: string;
  files: number;
  expandedBytes: number;
  sha256: string;
}

function contentTypeOf(name: string): string {
  if (/\.zip$/i.test(name)) return "application/zip";
  if (/\.tar$/i.test(name)) return "application/x-tar";
  if (/\.(tar\.gz|tgz)$/i.test(name)) return "application/gzip";
  return "application/octet-stream";
}

/** Streams an archive file to `POST /api/papers/<paper>/submissions`, reporting bytes sent. */
export async function sendSubmission(
  args: Pick<
    UploadArgs,
    "url" | "token" | "paper" | "agent" | "run" | "variant" | "reproduce" | "replace" | "evaluation"
  >,
  archive: { path: string; name: string },
  onProgress: (sent: number, total: number) => void = () => {},
): Promise<UploadAnswer> {
  const total = fs.statSync(archive.path).size;
  const query = new URLSearchParams({
    agent: args.agent,
    run: String(args.run),
    variant: args.variant,
    name: archive.name,
  });
  if (args.reproduce) query.set("reproduce", "1");
  if (args.replace) query.set("replace", "1");
  if (args.evaluation) query.set("evaluation", args.evaluation);
  let sent = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      onProgress(sent, total);
      done(null, chunk);
    },
  });
  // Opened now, not lazily: a stream still opening when the upload fails would fail later, unheard.
  const source = fs.createReadStream(archive.path, { fd: fs.openSync(archive.path, "r") });
  source.on("error", (err) => counting.destroy(err));
  // fetch reports a body that failed; this keeps the same error from being unhandled too.
  counting.on("error", () => {});
  const url = `${args.url}/api/papers/${encodeURIComponent(args.paper)}/submissions?${query}`;
  try {
    const res = await studioFetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${args.token}`,
        "content-type": contentTypeOf(archive.name),
        "content-length": String(total),
      },
      body: source.pipe(counting) as unknown as BodyInit,
      duplex: "half",
    } as RequestInit);
    return (await answerOf(res)) as UploadAnswer;
  } finally {
    // The studio may answer (a refusal) before it has read everything: stop reading the file.
    source.destroy();
  }
}

export interface JobAnswer {
  job: {
    id: string;
    status: JobStatus;
    exitCode: number | null;
    durationS: number | null;
    failureReason: string | null;
    outputs: { files: { path: string; size: number; changed: boolean }[] } | null;
  };
  logTail: string;
}

/** Polls `GET /api/jobs/<id>` every `intervalMs` until the job's status is final; `onStatus` hears each change. */
export async function waitForJob(
  args: Pick<UploadArgs, "url" | "token">,
  jobId: string,
  options: { intervalMs?: number; onStatus?: (status: JobStatus) => void } = {},
): Promise<JobAnswer> {
  let last: JobStatus | null = null;
  let failures = 0;
  for (;;) {
    let answer: JobAnswer | null = null;
    try {
      const res = await studioFetch(`${args.url}/api/jobs/${encodeURIComponent(jobId)}`, {
        headers: { authorization: `Bearer ${args.token}` },
      });
      answer = (await answerOf(res)) as JobAnswer;
      failures = 0;
    } catch (err) {
      // A studio restarting (a deploy) is waited out; a refusal (the token revoked) is not.
      if (!(err instanceof StudioError) || err.status !== null || ++failures >= 30) throw err;
    }
    if (answer) {
      if (answer.job.status !== last) options.onStatus?.(answer.job.status);
      last = answer.job.status;
      if (isFinalJobStatus(answer.job.status)) return answer;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
  }
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (line: string) => void;
}

/** The command: its exit code, with the JSON answer as the last thing written to stdout. */
export async function runSubmissionCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  let args: UploadArgs;
  try {
    args = parseSubmissionArgs(argv, env);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`${err.message}\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(args.source);
  } catch {
    io.stderr(`${args.source}: no such file or directory\n${USAGE}`);
    return 2;
  }
  const temp = stat.isDirectory() ? fs.mkdtempSync(path.join(os.tmpdir(), "rs-submission-")) : null;
  try {
    let archive = { path: args.source, name: path.basename(path.resolve(args.source)) };
    if (temp) {
      archive = { path: path.join(temp, `${archive.name}.tar.gz`), name: `${archive.name}.tar.gz` };
      io.stderr(`packing ${args.source} …`);
      await packDirectory(args.source, archive.path, io.stderr);
    }
    let lastReport = 0;
    const uploaded = await sendSubmission(args, archive, (sent, total) => {
      const now = Date.now();
      if (now - lastReport < 1000 && sent < total) return;
      lastReport = now;
      io.stderr(
        `uploading ${archive.name}: ${formatMiB(sent)} of ${formatMiB(total)} (${total ? Math.floor((sent / total) * 100) : 100}%)`,
      );
    });
    io.stderr(
      `stored submission ${uploaded.submissionId}: ${uploaded.files} files, ${formatMiB(uploaded.expandedBytes)} expanded${uploaded.jobId ? `; reproduction ${uploaded.jobId} queued` : ""}`,
    );
    const result: Record<string, unknown> = { submissionId: uploaded.submissionId };
    if (uploaded.jobId) result.jobId = uploaded.jobId;
    let code = 0;
    if (args.wait && uploaded.jobId) {
      const started = Date.now();
      const { job, logTail } = await waitForJob(args, uploaded.jobId, {
        onStatus: (status) =>
          io.stderr(`job ${uploaded.jobId}: ${status} (${Math.round((Date.now() - started) / 1000)} s)`),
      });
      Object.assign(result, { status: job.status, exitCode: job.exitCode, durationS: job.durationS, logTail });
      if (job.outputs) result.outputFiles = job.outputs.files;
      if (job.failureReason) io.stderr(`job ${job.id} ${job.status}: ${job.failureReason}`);
      code = job.status === "succeeded" ? 0 : 1;
    }
    io.stdout(`${JSON.stringify(result)}\n`);
    return code;
  } catch (err) {
    if (err instanceof StudioError) {
      io.stderr(err.message);
      return 1;
    }
    throw err;
  } finally {
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (line) => process.stderr.write(`${line}\n`),
  };
  runSubmissionCli(process.argv.slice(2), process.env, io).then(
    // Let stdout drain before exiting: a pipe would lose the JSON otherwise.
    (code) => process.stdout.write("", () => process.exit(code)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
