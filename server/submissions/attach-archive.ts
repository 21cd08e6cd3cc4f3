import "server-only";
import type { Store } from "@/db/client";
import { getSubmissionById, replaceSubmissionArchive } from "@/db/queries/submissions";
import { AppError } from "@/lib/errors";
import { archiveSummary, readSubmissionArchive, type ArchiveSource, type ArchiveSummary } from "./archive";

/**
 * Attaches the submitted repository to the submission a grading grades (after the grading was
 * imported without it, or to replace the one stored): read and checked in full before anything is
 * written, so a refused archive keeps the stored one. Every grading of that run sees it.
 */
export async function attachSubmissionArchive(
  store: Store,
  input: { submissionId: string; upload: ArchiveSource },
): Promise<{ archiveName: string; replaced: boolean; archive: ArchiveSummary }> {
  const archive = await readSubmissionArchive(input.upload);
  const submission = await getSubmissionById(store.db, input.submissionId);
  if (!submission) throw new AppError("not_found", "No such submission");
  await replaceSubmissionArchive(store.db, submission.id, archive);
  return { archiveName: archive.name, replaced: submission.archiveName !== null, archive: archiveSummary(archive) };
}
