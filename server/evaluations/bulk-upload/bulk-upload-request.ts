import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Store } from "@/db/client";
import { AppError } from "@/lib/errors";
import { writeBodyToFile } from "@/server/http/body";
import { extractCheckedArchive } from "@/server/submissions/extract-checked-archive";
import { submissionLimits } from "@/server/submissions/submission-limits";
import { bulkUploadIntoEvaluation, evaluationToFill, type BulkUploadResult } from "./bulk-upload";

/**
 * `POST /api/evaluations/<id>/submissions`: one archive (.tar.gz, .tar, .zip) as the raw body, in
 * any layout the bulk upload reads (a manifest's paths relative to the archive's root). The
 * evaluation is looked up before the body is read; the body is streamed to a temporary file (413
 * past the submission limit), every entry checked, extracted, and handed to the bulk upload;
 * everything temporary is removed after. With `replace`, runs already uploaded take the new archive.
 */
export async function bulkUploadRequest(
  store: Store,
  req: Request,
  evaluationId: string,
  userId: string,
  options: { replace?: boolean } = {},
): Promise<BulkUploadResult> {
  await evaluationToFill(store, evaluationId);
  const limits = submissionLimits();
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "rs-bulk-upload-"));
  try {
    const archive = path.join(dir, "upload-archive");
    const bytes = await writeBodyToFile(req, archive, limits.maxArchiveBytes);
    if (bytes === 0)
      throw new AppError("bad_request", "Send the submissions as one .tar.gz, .tar or .zip body", [
        { path: "body", message: "is empty" },
      ]);
    const root = path.join(dir, "upload");
    await fs.promises.mkdir(root);
    await extractCheckedArchive(archive, "the upload", root, limits, "body");
    await fs.promises.rm(archive);
    return await bulkUploadIntoEvaluation(store, { evaluationId, source: root, userId, replace: options.replace });
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
