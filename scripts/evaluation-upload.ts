/**
 * `npm run evaluation -- upload <folder|archive|manifest.csv> --evaluation <id> [--url <studio>]`:
 * fills an existing evaluation by bulk upload (server/evaluations/bulk-upload/). On the studio's
 * database a folder or manifest is read where it is (a manifest's paths relative to its folder,
 * or absolute) and an archive is checked and extracted first; with --url the upload becomes one
 * archive sent to `POST /api/evaluations/<id>/submissions`: a folder packed, an archive as it is,
 * a manifest with the files it names gathered beside it under new relative paths.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { registerJobPlatform } from "@/server/job-platform";
import { openDatabase } from "@/db/client";
import { readServerEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { MANIFEST_FILE, parseManifest } from "@/lib/evaluations/bulk-manifest";
import { bulkUploadIntoEvaluation, type BulkUploadResult } from "@/server/evaluations/bulk-upload/bulk-upload";
import { extractCheckedArchive } from "@/server/submissions/extract-checked-archive";
import { packDirectory } from "@/server/submissions/pack-directory";
import { submissionLimits } from "@/server/submissions/submission-limits";
import { answerOf, studioFetch } from "./studio-http";

export interface UploadArgs {
  source: string;
  kind: "folder" | "archive" | "manifest";
  evaluation: string;
  url?: string;
}

export function parseUploadArgs(
  argv: string[],
  env: Record<string, string | undefined>,
  usage: (message: string) => Error,
): UploadArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { evaluation: { type: "string" }, url: { type: "string" } },
    });
  } catch (err) {
    throw usage((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw usage("upload takes one folder, archive or manifest.csv");
  const source = positionals[0];
  const stat = fs.statSync(source, { throwIfNoEntry: false });
  if (!stat) throw usage(`${source}: no such file or folder`);
  if (!values.evaluation?.trim()) throw usage("--evaluation <id> is required");
  const url = (values.url ?? env.STUDIO_URL)?.replace(/\/+$/, "");
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url))
    throw usage(`--url must be the studio's http(s):// address, not "${url}"`);
  const kind = stat.isDirectory() ? "folder" : source.toLowerCase().endsWith(".csv") ? "manifest" : "archive";
  return { source, kind, evaluation: values.evaluation.trim(), url };
}

export async function uploadOnDatabase(args: UploadArgs): Promise<BulkUploadResult> {
  registerJobPlatform();
  const handle = await openDatabase({ databaseUrl: readServerEnv().DATABASE_URL });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evaluation-upload-"));
  try {
    let source = args.source;
    if (args.kind === "archive") {
      source = path.join(dir, "upload");
      fs.mkdirSync(source);
      await extractCheckedArchive(args.source, path.basename(args.source), source, submissionLimits(), "archive");
    }
    return await bulkUploadIntoEvaluation(handle, {
      evaluationId: args.evaluation,
      source,
      userId: null,
      allowAbsolutePaths: args.kind === "manifest",
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await handle.close();
  }
}

export async function uploadThroughStudio(
  args: UploadArgs & { url: string },
  token: string,
  log: (line: string) => void,
): Promise<BulkUploadResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evaluation-upload-"));
  try {
    let archive = args.source;
    if (args.kind !== "archive") {
      archive = path.join(dir, "upload.tar.gz");
      await packDirectory(
        args.kind === "manifest" ? stageManifest(args.source, path.join(dir, "staged")) : args.source,
        archive,
        log,
      );
    }
    const total = fs.statSync(archive).size;
    log(`sending ${path.basename(path.resolve(args.source))} (${total} bytes) to ${args.url}`);
    const body = fs.createReadStream(archive, { fd: fs.openSync(archive, "r") });
    try {
      const res = await studioFetch(`${args.url}/api/evaluations/${encodeURIComponent(args.evaluation)}/submissions`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/octet-stream",
          "content-length": String(total),
        },
        body: body as unknown as BodyInit,
        duplex: "half",
      } as RequestInit);
      return (await answerOf(res)) as BulkUploadResult;
    } finally {
      body.destroy();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A manifest and the files it names, copied into one folder the studio can receive: row i's path
 * becomes `cells/<i>/<name>`, the manifest rewritten to match (bad rows are refused here, naming
 * the line and column, as the studio would).
 */
function stageManifest(file: string, staged: string): string {
  const { rows, issues } = parseManifest(fs.readFileSync(file, "utf8"), { allowAbsolute: true });
  if (issues.length > 0) {
    const where = issues.map((i) => `${path.basename(file)} line ${i.line}, column ${i.column}: ${i.message}`);
    throw new AppError(
      "bad_request",
      where.join("\n"),
      issues.map((i) => ({ path: `${path.basename(file)}:${i.line}:${i.column}`, message: i.message })),
    );
  }
  const lines = ["paper_id,run,path"];
  rows.forEach((row, i) => {
    const from = path.isAbsolute(row.path) ? row.path : path.join(path.dirname(file), row.path);
    if (!fs.existsSync(from))
      throw new AppError(
        "bad_request",
        `${path.basename(file)} line ${row.line}, column path: "${row.path}" does not exist`,
      );
    const to = `cells/${i + 1}/${path.basename(from)}`;
    fs.cpSync(from, path.join(staged, to), { recursive: true, verbatimSymlinks: true });
    lines.push([row.paperId, String(row.run), to].map(csvField).join(","));
  });
  fs.writeFileSync(path.join(staged, MANIFEST_FILE), lines.join("\n") + "\n");
  return staged;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
