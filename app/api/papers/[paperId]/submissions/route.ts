import { evaluationUpload } from "@/server/evaluations/evaluation-upload";
import { apiRoute } from "@/server/http/route";
import { listPaperSubmissions } from "@/server/submissions/list-submissions";
import { submissionLimits } from "@/server/submissions/submission-limits";
import { withSubmissionUpload } from "@/server/submissions/submission-upload-request";
import { precheckSubmissionUpload, uploadSubmission } from "@/server/submissions/upload-submission";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { paperId: string };

/** The paper's submissions, with their archive and the status of their latest job. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper }) => {
  return { submissions: await listPaperSubmissions(store, paper.id) };
});

/**
 * Staff upload of a submission (one run of an agent): the archive as the raw body with the fields
 * in the query string (`?agent=…&run=…&variant=…&reproduce=1&replace=1&name=repo.tar.gz`), or a
 * small multipart form (which may carry PaperBench's `agent.log` as `agentLog`). Answers
 * `{ submissionId, jobId?, files, expandedBytes, sha256, blacklistHits? }`.
 */
export const POST = apiRoute<Params>({ paper: "manage" }, async ({ req, store, paper, user }) => {
  const limits = submissionLimits();
  const result = await withSubmissionUpload(
    req,
    {
      maxArchiveBytes: limits.maxArchiveBytes,
      beforeBody: ({ evaluation, ...fields }) =>
        precheckSubmissionUpload(store, { ...fields, paperId: paper.id }, evaluationUpload(evaluation)),
    },
    ({ fields: { evaluation, ...fields }, archive, agentLog }) =>
      uploadSubmission(
        store,
        { ...fields, paperId: paper.id, userId: user.id, archive, agentLog, limits },
        evaluationUpload(evaluation),
      ),
  );
  return jsonAnswer(result, { status: 201 });
});
