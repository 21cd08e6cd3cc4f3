import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { agentNameSchema, flagSchema, runIndexSchema, submissionVariantSchema } from "@/lib/submissions/schemas";
import { replaceNul, text } from "@/lib/text";
import { formatBytes } from "@/lib/bytes";
import { writeBodyToFile } from "@/server/http/body";
import { assertEntrySize, readMultipartForm } from "@/server/http/upload";
import type { SubmissionUploadFields } from "./upload-submission";

export const submissionUploadFieldsSchema = z.object({
  agent: agentNameSchema,
  run: runIndexSchema,
  variant: submissionVariantSchema.default("full"),
  reproduce: flagSchema,
  replace: flagSchema,
  name: text().trim().max(300, "must be at most 300 characters").optional(),
  evaluation: text().trim().max(100, "must be at most 100 characters").optional(),
});

/** The raw body types of an archive sent as it is (the CLI, a browser's fetch of a File). */
const ARCHIVE_TYPES = new Set([
  "application/gzip",
  "application/x-gzip",
  "application/x-tar",
  "application/x-compressed-tar",
  "application/zip",
  "application/x-zip-compressed",
  "application/octet-stream",
]);

/**
 * A form, unlike a raw body, is read into memory (the platform's parser): small browser uploads
 * only. Anything larger goes as a raw body, streamed to disk.
 */
export const MAX_MULTIPART_ARCHIVE_BYTES = 64 * 1024 * 1024;

export interface SubmissionUploadRequest {
  fields: SubmissionUploadFields;
  /** `disposable`: a temporary copy the blob store may take by rename. */
  archive: { path: string; name: string; disposable: true };
  /** PaperBench's `agent.log`, when a form sends it beside the archive. */
  agentLog?: { path: string };
}

/**
 * Reads a submission upload into a temporary file and hands it to `handle`; the file is removed after,
 * whatever happens. Two shapes:
 * - the archive as the raw body (`application/gzip`, `application/x-tar`, `application/zip`,
 *   `application/octet-stream`), the fields in the query string (`?agent=…&run=…&variant=…&reproduce=1&name=repo.tar.gz`),
 *   streamed to disk up to `maxArchiveBytes`; `beforeBody` runs once the fields are read, before
 *   the body is, so a refusal costs no upload;
 * - a multipart form with the `archive` file and the same fields (at most 64 MiB in all), and
 *   optionally the agent's log as the `agentLog` file.
 */
export async function withSubmissionUpload<T>(
  req: Request,
  options: { maxArchiveBytes: number; beforeBody: (fields: SubmissionUploadFields) => Promise<void> },
  handle: (upload: SubmissionUploadRequest) => Promise<T>,
): Promise<T> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "rs-submission-"));
  const file = path.join(dir, "archive");
  try {
    if (ARCHIVE_TYPES.has(type)) {
      const query = Object.fromEntries(new URL(req.url).searchParams);
      const { name, ...fields } = submissionUploadFieldsSchema.parse(query);
      await options.beforeBody(fields);
      await writeBodyToFile(req, file, options.maxArchiveBytes);
      return await handle({ fields, archive: { path: file, name: name || "submission", disposable: true } });
    }
    if (type === "multipart/form-data") {
      const form = await readMultipartForm(
        req,
        Math.min(options.maxArchiveBytes, MAX_MULTIPART_ARCHIVE_BYTES) + 64 * 1024,
      );
      const field = (key: string) => {
        const v = form.get(key);
        return typeof v === "string" ? v : undefined;
      };
      const { name, ...fields } = submissionUploadFieldsSchema.parse({
        agent: field("agent"),
        run: field("run"),
        variant: field("variant") || undefined,
        reproduce: field("reproduce"),
        replace: field("replace"),
        name: field("name") || undefined,
        evaluation: field("evaluation") || undefined,
      });
      await options.beforeBody(fields);
      const archive = form.get("archive");
      if (archive === null || typeof archive === "string") {
        throw new AppError("bad_request", "The upload has no archive file (.tar.gz, .tar or .zip)", [
          { path: "archive", message: "must be a file" },
        ]);
      }
      assertEntrySize(archive, options.maxArchiveBytes, "The submission archive", "archive");
      await fs.promises.writeFile(file, Buffer.from(await archive.arrayBuffer()));
      const log = form.get("agentLog");
      let agentLog: { path: string } | undefined;
      if (log !== null && typeof log !== "string") {
        agentLog = { path: path.join(dir, "agent.log") };
        await fs.promises.writeFile(agentLog.path, Buffer.from(await log.arrayBuffer()));
      }
      return await handle({
        fields,
        archive: { path: file, name: name || replaceNul(archive.name).text || "submission", disposable: true },
        agentLog,
      });
    }
    throw new AppError(
      "unsupported_media_type",
      `Send the archive as the request body (application/gzip, application/x-tar, application/zip or application/octet-stream) with the fields in the query string, or as multipart/form-data of at most ${formatBytes(MAX_MULTIPART_ARCHIVE_BYTES)}; not "${type || "no content type"}"`,
    );
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
