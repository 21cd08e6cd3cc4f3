import "server-only";
import { readBodyText } from "@/server/http/body";
import { assertEntrySize, readMultipartForm, uploadKind } from "@/server/http/upload";
import { AppError } from "@/lib/errors";
import { RUBRIC_LIMITS } from "@/lib/rubric/limits";
import type { PaperFolderFiles, ReplacePolicy } from "./import";
import { PAPER_FOLDER_FILES } from "./folder-reader";

export interface RubricUpload {
  files: PaperFolderFiles;
  paperId?: string;
  folderName?: string;
  /** What the request confirmed about replacing a rubric that has nodes. */
  replace: ReplacePolicy;
}

// A folder upload carries the rubric plus small text files; leave room for them.
const MAX_FORM_BYTES = RUBRIC_LIMITS.maxBytes + 4 * 1024 * 1024;

/**
 * Reads an upload: either a raw rubric.json body (`Content-Type: application/json`), or a
 * multipart form whose fields are named like the files of a PaperBench paper folder
 * (`rubric.json`, `config.yaml`, ... or `rubric`, `config`, ...), plus optional `paperId` and
 * `folderName` text fields. `expectedRevision=<n>` (the revision whose changes the user confirmed) or
 * `replace=true` (a script replacing whatever is there) come as form fields or in the query string
 * (the only place a raw JSON body leaves for them).
 */
export async function readRubricUpload(req: Request): Promise<RubricUpload> {
  const query = new URL(req.url).searchParams;
  if (uploadKind(req, "the rubric") === "json") {
    return {
      files: { rubric: await readBodyText(req, RUBRIC_LIMITS.maxBytes) },
      replace: replacePolicy((name) => query.get(name)),
    };
  }
  const form = await readMultipartForm(req, MAX_FORM_BYTES);
  const files: Partial<PaperFolderFiles> = {};
  for (const [field, fileName] of Object.entries(PAPER_FOLDER_FILES) as [keyof PaperFolderFiles, string][]) {
    const value = form.get(fileName) ?? form.get(field);
    if (value === null) continue;
    assertEntrySize(value, RUBRIC_LIMITS.maxBytes, fileName, fileName);
    files[field] = typeof value === "string" ? value : await value.text();
  }
  if (files.rubric === undefined) {
    throw new AppError("bad_request", "The upload has no rubric.json", [
      { path: "rubric.json", message: "is required" },
    ]);
  }
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" && v.trim() ? v.trim() : undefined;
  };
  return {
    files: files as PaperFolderFiles,
    paperId: text("paperId"),
    folderName: text("folderName"),
    replace: replacePolicy((name) => text(name) ?? query.get(name)),
  };
}

function replacePolicy(value: (name: string) => string | null | undefined): ReplacePolicy {
  const expected = value("expectedRevision");
  if (expected != null) {
    if (!/^\d{1,9}$/.test(expected)) {
      throw new AppError("bad_request", "expectedRevision must be a revision number", [
        { path: "expectedRevision", message: "must be a whole number >= 0" },
      ]);
    }
    return { expectedRevision: Number(expected) };
  }
  const replace = value("replace");
  if (replace == null) return "never";
  if (replace !== "true")
    throw new AppError("bad_request", "replace must be true when given", [
      { path: "replace", message: "must be true" },
    ]);
  return "any";
}
