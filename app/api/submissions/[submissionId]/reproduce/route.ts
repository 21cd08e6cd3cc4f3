import { requireSubmissionAccess } from "@/server/access/submission-access";
import { apiRoute } from "@/server/http/route";
import { reproduceSubmission } from "@/server/submissions/reproduce-submission";
import { jsonAnswer } from "@/server/http/json-answer";

/** Queues a reproduction of a stored submission (staff): `{ jobId }`. */
export const POST = apiRoute<{ submissionId: string }>({}, async ({ params, store, user }) => {
  const { submission } = await requireSubmissionAccess(store, user, params.submissionId, "manage");
  return jsonAnswer(await reproduceSubmission(store, submission, user.id), { status: 201 });
});
