import { requireSubmissionAccess } from "@/server/access/submission-access";
import { apiRoute } from "@/server/http/route";
import { listSubmissionJudgeRuns } from "@/server/judge/runs/read-judge-run";

/** A submission's judge runs with their progress and, once done, their scores, newest first (staff and the paper's members). */
export const GET = apiRoute<{ submissionId: string }>({}, async ({ params, store, user }) => {
  const { submission, role } = await requireSubmissionAccess(store, user, params.submissionId, "view");
  return { runs: await listSubmissionJudgeRuns(store, submission, { userId: user.id, role }) };
});
