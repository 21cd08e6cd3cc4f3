import "server-only";
import type { Store } from "@/db/client";
import { listSubmissionsByPaperId, type SubmissionListItem } from "@/db/queries/submissions";
import { judgeRunStatus, type LatestJudgeRunView } from "@/lib/judge/views";

export type PaperSubmission = Omit<SubmissionListItem, "latestJudge"> & { latestJudge: LatestJudgeRunView | null };

/** A paper's submissions, by agent, variant and run, with their archive, latest reproduction and latest judge run. */
export async function listPaperSubmissions(store: Store, paperId: string): Promise<PaperSubmission[]> {
  const rows = await listSubmissionsByPaperId(store.db, paperId);
  return rows.map(({ latestJudge, ...row }) => {
    if (!latestJudge) return { ...row, latestJudge: null };
    const { jobStatus, ...run } = latestJudge;
    return { ...row, latestJudge: { ...run, status: judgeRunStatus(jobStatus) } };
  });
}
