import "server-only";
import { readBodyText } from "@/server/http/body";
import { assertEntrySize, readMultipartForm, uploadKind } from "@/server/http/upload";
import { AppError } from "@/lib/errors";
import { RUBRIC_LIMITS } from "@/lib/rubric/limits";
import type { PaperFolderFiles } from "./import";
import { PAPER_FOLDER_FILES } from "./folder-reader";

export interface RubricUpload {
  files: PaperFolderFiles;
  paperId?: string;
  folderName?: string;
}

// A folder upload carries the rubric plus small text files; leave room for them.
const MAX_FORM_BYTES = RUBRIC_LIMITS.maxBytes + 4 * 1024 * 1024;

/**
 * Reads an upload: either a raw rubric.json body (`Content-Type: application/json`), or a
 * multipart form whose fields are named like the files of a PaperBench paper folder
 * (`rubric.json`, `config.yaml`, ... or `rubric`, `config`, ...), plus optional `paperId` and
 * `folderName` text fields.
 */
export async function readRubricUpload(req: Request): Promise<RubricUpload> {
  if (uploadKind(req, "the rubric") === "json") {
    return { files: { rubric: await readBodyText(req, RUBRIC_LIMITS.maxBytes) } };
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
    throw new AppError("bad_request", "The upload has no rubric.json", [{ path: "rubric.json", message: "is required" }]);
  }
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" && v.trim() ? v.trim() : undefined;
  };
  return { files: files as PaperFolderFiles, paperId: text("paperId"), folderName: text("folderName") };
}
