import "server-only";
import { z } from "zod";
import { replaceNul, text } from "@/lib/text";
import { readBodyText } from "@/server/http/body";
import { assertEntrySize, readMultipartForm, uploadKind } from "@/server/http/upload";
import { AppError } from "@/lib/errors";
import { GRADED_LIMITS } from "@/lib/grading/graded-tree";
import { ARCHIVE_LIMITS } from "./archive";
import { gradingImportFieldsSchema, type GradingImportFields } from "@/lib/submissions/schemas";

export interface GradingUpload extends GradingImportFields {
  fileText: string;
  fileName: string | null;
  /** The submitted repository (.tar.gz, .tar, .zip), when one was sent. */
  archive: { name: string; data: Buffer } | null;
}

const jsonBodySchema = gradingImportFieldsSchema.extend({
  // The graded file as text, or as the JSON value itself.
  file: z.union([z.string(), z.record(z.string(), z.unknown())], {
    error: "must be the graded file's text or its JSON object",
  }),
  fileName: text().trim().max(300, "must be at most 300 characters").optional(),
});

const MAX_FORM_BYTES = GRADED_LIMITS.maxBytes + ARCHIVE_LIMITS.maxArchiveBytes + 1024 * 1024;

/**
 * Reads a grading import: a JSON body `{ file, fileName?, agent, run, variant?, human? }`, or a
 * multipart form with a `file` (the graded tree or judge output), an optional `submission`
 * (the repository archive) and the fields `agent`, `run`, `variant`, `human`.
 */
export async function readGradingUpload(req: Request): Promise<GradingUpload> {
  if (uploadKind(req, "the grading") === "json") {
    const text = await readBodyText(req, GRADED_LIMITS.maxBytes + 64 * 1024);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new AppError("bad_request", `The request body is not valid JSON: ${(err as Error).message}`);
    }
    const body = jsonBodySchema.parse(value);
    const { file, fileName, ...fields } = body;
    return {
      ...fields,
      fileText: typeof file === "string" ? file : JSON.stringify(file),
      fileName: fileName ?? null,
      archive: null,
    };
  }
  const form = await readMultipartForm(req, MAX_FORM_BYTES);
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const fields = gradingImportFieldsSchema.parse({
    agent: field("agent"),
    agentScaffold: field("agentScaffold") || undefined,
    agentModel: field("agentModel") || undefined,
    run: field("run"),
    variant: field("variant") || undefined,
    human: field("human"),
  });

  const file = form.get("file");
  if (file === null)
    throw new AppError("bad_request", "The upload has no graded file", [{ path: "file", message: "is required" }]);
  assertEntrySize(file, GRADED_LIMITS.maxBytes, "The graded file", "file");
  const fileText = typeof file === "string" ? file : await file.text();
  // A name is kept as sent, less any NUL (which the database cannot store).
  const rawName = typeof file === "string" ? field("fileName") : file.name;
  const fileName = rawName ? replaceNul(rawName).text : null;

  return { ...fields, fileText, fileName, archive: await readSubmissionPart(form) };
}

/** The `submission` file of a form (the repository archive), or null when none was sent. */
async function readSubmissionPart(form: FormData): Promise<GradingUpload["archive"]> {
  const submission = form.get("submission");
  if (submission !== null && typeof submission !== "string") {
    assertEntrySize(submission, ARCHIVE_LIMITS.maxArchiveBytes, "The submission archive", "submission");
    return {
      name: replaceNul(submission.name).text || "submission",
      data: Buffer.from(await submission.arrayBuffer()),
    };
  }
  if (typeof submission === "string" && submission !== "") {
    throw new AppError("bad_request", "submission must be a file (.tar.gz, .tar or .zip)", [
      { path: "submission", message: "must be a file" },
    ]);
  }
  return null;
}

/** An archive attached to an existing grading's submission: a multipart form with its `submission` file. */
export async function readArchiveUpload(req: Request): Promise<{ name: string; data: Buffer }> {
  if (uploadKind(req, "the archive") !== "multipart") {
    throw new AppError(
      "unsupported_media_type",
      "Send the archive as multipart/form-data, in a field named submission",
    );
  }
  const archive = await readSubmissionPart(await readMultipartForm(req, ARCHIVE_LIMITS.maxArchiveBytes + 64 * 1024));
  if (!archive)
    throw new AppError("bad_request", "The upload has no archive", [{ path: "submission", message: "is required" }]);
  return archive;
}
