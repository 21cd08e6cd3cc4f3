import { requireSubmissionAccess } from "@/server/access/submission-access";
import { apiRoute } from "@/server/http/route";
import { readSubmissionView } from "@/server/submissions/read-submission";

/** A submission with its files and reproductions (staff and the paper's members). */
export const GET = apiRoute<{ submissionId: string }>({}, async ({ params, store, user }) => {
  const { submission } = await requireSubmissionAccess(store, user, params.submissionId, "view");
  return { submission: await readSubmissionView(store, submission) };
});
