import "server-only";
import type { Store } from "@/db/client";
import { getAgentById } from "@/db/queries/agents";
import { listJobsBySubmissionId } from "@/db/queries/jobs";
import { getPaperById } from "@/db/queries/papers";
import { listSubmissionFiles } from "@/db/queries/submissions";
import type { Submission } from "@/db/schema";
import type { SubmissionView } from "@/lib/submissions/submission-view";
import { readJobView } from "@/server/jobs/read-job";

/** A submission with its paper, agent, file listing and reproductions (newest first; its judge runs are listed apart). */
export async function readSubmissionView(store: Store, submission: Submission): Promise<SubmissionView> {
  const [paper, agent, files, jobs] = await Promise.all([
    getPaperById(store.db, submission.paperId),
    getAgentById(store.db, submission.agentId),
    listSubmissionFiles(store.db, submission.id),
    listJobsBySubmissionId(store.db, submission.id).then((all) => all.filter((job) => job.kind === "reproduce")),
  ]);
  return {
    id: submission.id,
    paper: { id: submission.paperId, title: paper?.title ?? submission.paperId },
    agent: { id: submission.agentId, name: agent?.name ?? "(deleted agent)" },
    runIndex: submission.runIndex,
    variant: submission.variant,
    archive: {
      name: submission.archiveName,
      bytes: submission.archiveBytes,
      expandedBytes: submission.archiveExpandedBytes,
      fileCount: submission.archiveFileCount,
      sha256: submission.archiveSha256,
      notes: submission.archiveNotes,
    },
    flags: submission.flags,
    hasReproduceLog: submission.reproduceLog !== null,
    createdAt: submission.createdAt.toISOString(),
    files,
    jobs: await Promise.all(jobs.map((job) => readJobView(store, job))),
  };
}
