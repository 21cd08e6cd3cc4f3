import "server-only";
import type { Store } from "@/db/client";
import { listGradingsByPaperId, type GradingListItem } from "@/db/queries/gradings";
import {
  getSubmissionById,
  getSubmissionFileContent,
  getSubmissionReproduceLog,
  listSubmissionFiles,
} from "@/db/queries/submissions";
import type { EffectiveRole } from "@/lib/auth/access";
import { listAssignedGradings } from "./assigned-gradings";

/**
 * The gradings of a paper's submissions for one member: every one for staff and authors; for a
 * grader the gradings assigned to them, without the root score or the imported file's where their
 * assignment hides a verdict from them (both aggregate every leaf).
 */
export async function listPaperGradings(
  store: Store,
  input: { paperId: string; userId: string; role: Exclude<EffectiveRole, null> },
): Promise<
  (GradingListItem | (Omit<GradingListItem, "score" | "importedScore"> & { score: null; importedScore: null }))[]
> {
  const gradings = await listGradingsByPaperId(store.db, input.paperId);
  if (input.role !== "grader") return gradings;
  const assigned = await listAssignedGradings(store, input.userId);
  return gradings
    .filter((g) => assigned.has(g.id))
    .map((g) => (assigned.get(g.id)!.scoreHidden ? { ...g, score: null, importedScore: null } : g));
}

/**
 * The submitted repository of a graded run: the listing, or one file's content (`path`), or the
 * reproduce.log (`log`).
 */
export async function readSubmissionFiles(store: Store, submissionId: string, query: { path?: string; log?: "1" }) {
  const { db } = store;
  if (query.log) return { reproduceLog: await getSubmissionReproduceLog(db, submissionId) };
  if (query.path) return { file: await getSubmissionFileContent(db, submissionId, query.path) };
  const submission = (await getSubmissionById(db, submissionId))!;
  return {
    archiveName: submission.archiveName,
    archiveBytes: submission.archiveBytes,
    notes: submission.archiveNotes,
    hasReproduceLog: submission.reproduceLog !== null,
    files: await listSubmissionFiles(db, submissionId),
  };
}
