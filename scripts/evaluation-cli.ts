/**
 * Evaluations from the command line:
 *
 *   npm run evaluation -- ingest <runs-folder> --agent <name> [--name <name>] [--policies <json>] [--url <studio>]
 *   npm run evaluation -- upload <folder|archive|manifest.csv> --evaluation <id> [--url <studio>]
 *
 * Ingests PaperBench's own results folder (`runs/<run_group_id>/<run_id>/grade.json` and its
 * `submissions/<timestamp>/`) as one evaluation of the agent: each run group, by name, is a run.
 * Without --url it works on the studio's database like the other commands (DATABASE_URL, else the
 * embedded DATA_DIR, which it locks); with --url (or STUDIO_URL) it packs the folder and sends it
 * to a running studio with STUDIO_TOKEN. Progress goes to stderr; the last thing on stdout is one
 * JSON object: `{evaluationId, agent, runs, papers: {<paper>: [<root score per run>]}, runScores, mean, se}`.
 *
 * `upload` fills an existing evaluation by bulk upload (scripts/evaluation-upload.ts): PaperBench's
 * run groups without grades, `<paper>/<run>/submission/` folders, or a manifest CSV
 * (`paper_id,run,path`); it prints `{evaluationId, layout, cells: [{paperId, run, submissionId, source, …}], skipped}` last.
 * Exit 0 on success, 1 on a refusal, 2 on a usage error.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { registerJobPlatform } from "@/server/job-platform";
import { openDatabase } from "@/db/client";
import { DataDirLockedError } from "@/db/data-dir-lock";
import { readServerEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { evaluationPoliciesSchema, type EvaluationPolicies } from "@/lib/evaluations/schemas";
import { ingestPaperBenchResults, type IngestResult } from "@/server/evaluations/ingest-paperbench-results";
import { packDirectory } from "@/server/submissions/pack-directory";
import { parseUploadArgs, uploadOnDatabase, uploadThroughStudio } from "./evaluation-upload";
import { answerOf, studioFetch, StudioError } from "./studio-http";

class UsageError extends Error {}

const USAGE = `usage:
  npm run evaluation -- ingest <runs-folder> --agent <name> [--name <name>] [--policies <json>] [--url <studio>]
  npm run evaluation -- upload <folder|archive|manifest.csv> --evaluation <id> [--url <studio>]
  --policies: {"reproduction_failed": "zero"|"exclude"|{"retry": n}, "reproduction_timed_out": …, "judge_invalid_leaves": …, "blacklisted": "zero"|"exclude"}
  With --url (or STUDIO_URL) the token comes from STUDIO_TOKEN (npm run user -- token <email>).`;

interface IngestArgs {
  runsDir: string;
  agent: string;
  name?: string;
  policies?: EvaluationPolicies;
  url?: string;
  policiesText?: string;
}

function parseIngestArgs(argv: string[], env: Record<string, string | undefined>): IngestArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        agent: { type: "string" },
        name: { type: "string" },
        policies: { type: "string" },
        url: { type: "string" },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError("ingest takes one runs folder");
  const runsDir = positionals[0];
  if (!fs.existsSync(runsDir) || !fs.statSync(runsDir).isDirectory())
    throw new UsageError(`${runsDir}: no such folder`);
  if (!values.agent?.trim()) throw new UsageError("--agent <name> is required");
  let policies: EvaluationPolicies | undefined;
  if (values.policies !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(values.policies);
    } catch {
      throw new UsageError("--policies must be JSON");
    }
    const result = evaluationPoliciesSchema.safeParse(json);
    if (!result.success)
      throw new UsageError(
        `--policies: ${result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
      );
    policies = result.data;
  }
  const url = (values.url ?? env.STUDIO_URL)?.replace(/\/+$/, "");
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url))
    throw new UsageError(`--url must be the studio's http(s):// address, not "${url}"`);
  return { runsDir, agent: values.agent.trim(), name: values.name, policies, policiesText: values.policies, url };
}

async function ingestOnDatabase(args: IngestArgs): Promise<IngestResult> {
  registerJobPlatform();
  const handle = await openDatabase({ databaseUrl: readServerEnv().DATABASE_URL });
  try {
    const { result } = await ingestPaperBenchResults(handle, {
      runsDir: args.runsDir,
      agent: args.agent,
      name: args.name,
      policies: args.policies,
      userId: null,
    });
    return result;
  } finally {
    await handle.close();
  }
}

async function ingestThroughStudio(
  args: IngestArgs & { url: string },
  token: string,
  log: (line: string) => void,
): Promise<IngestResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evaluation-ingest-"));
  try {
    const archive = path.join(dir, "runs.tar.gz");
    await packDirectory(args.runsDir, archive, log);
    const total = fs.statSync(archive).size;
    log(`sending ${path.basename(path.resolve(args.runsDir))} (${total} bytes) to ${args.url}`);
    const query = new URLSearchParams({ agent: args.agent });
    if (args.name) query.set("name", args.name);
    if (args.policiesText) query.set("policies", args.policiesText);
    const source = fs.createReadStream(archive, { fd: fs.openSync(archive, "r") });
    try {
      const res = await studioFetch(`${args.url}/api/evaluations/ingest?${query}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/gzip",
          "content-length": String(total),
        },
        body: source as unknown as BodyInit,
        duplex: "half",
      } as RequestInit);
      return (await answerOf(res)) as IngestResult;
    } finally {
      source.destroy();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function studioToken(env: Record<string, string | undefined>): string {
  const token = env.STUDIO_TOKEN?.trim();
  if (!token)
    throw new UsageError(
      "STUDIO_TOKEN is not set: make a token with `npm run user -- token <email>` and export STUDIO_TOKEN=<token>",
    );
  return token;
}

function printLast(result: unknown): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    process.stdout.write(JSON.stringify(result) + "\n", (err) => (err ? reject(err) : resolve())),
  );
}

async function runUpload(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const args = parseUploadArgs(argv, env, (message) => new UsageError(message));
  const log = (line: string) => console.error(line);
  const result = args.url
    ? await uploadThroughStudio({ ...args, url: args.url }, studioToken(env), log)
    : await uploadOnDatabase(args);
  for (const skipped of result.skipped) log(`skipped ${skipped.where}: ${skipped.reason}`);
  log(`evaluation ${result.evaluationId}: ${result.cells.length} submission(s) from the ${result.layout} layout`);
  await printLast(result);
  return 0;
}

async function runEvaluationCli(argv: readonly string[], env: Record<string, string | undefined>): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "upload") return runUpload(rest, env);
  if (command !== "ingest") throw new UsageError(command ? `unknown command "${command}"` : "a command is required");
  const args = parseIngestArgs(rest, env);
  let result: IngestResult;
  if (args.url) {
    result = await ingestThroughStudio({ ...args, url: args.url }, studioToken(env), (line) => console.error(line));
  } else {
    result = await ingestOnDatabase(args);
  }
  console.error(
    `evaluation ${result.evaluationId}: ${Object.keys(result.papers).length} papers × ${result.runs} runs, mean ${result.mean ?? "n/a"} ± ${result.se ?? "n/a"}`,
  );
  await printLast(result);
  return 0;
}

runEvaluationCli(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) console.error(`${err.message}\n${USAGE}`);
    else if (err instanceof AppError || err instanceof StudioError || err instanceof DataDirLockedError)
      console.error(err.message);
    else console.error(err);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
