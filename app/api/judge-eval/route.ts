import { z } from "zod";
import { evaluateCandidates } from "@/db/queries/judge-eval";
import { parseJsonBody } from "@/server/http/body";
import { judgeEvalCandidatesOf, judgeEvalPapers, judgeEvalSelection, submissionIdsSchema } from "@/server/access/judge-eval-access";
import { apiRoute } from "@/server/http/route";

/**
 * The submissions JudgeEval can compare (`?paper=<id>`, repeatable; default every paper the user
 * may evaluate): each with a human truth (an imported human grading, or a review that covered every
 * leaf) and a judge grading. Staff: any paper; authors: their papers.
 */
export const GET = apiRoute({}, async ({ req, db, user }) => {
  const papers = await judgeEvalPapers(db, user, req.nextUrl.searchParams.getAll("paper"));
  return { candidates: await judgeEvalCandidatesOf(db, papers) };
});

const evaluateBody = z.object({ submissionIds: submissionIdsSchema });

/**
 * JudgeEval pooled over the submissions chosen (`{ submissionIds }`): PaperBench's metrics
 * overall and per task category, the confusion matrix, each submission on its own, and the
 * disagreements ranked by how much each moves the final score.
 */
export const POST = apiRoute({}, async ({ req, db, user }) => {
  const { submissionIds } = await parseJsonBody(req, evaluateBody);
  const candidates = await judgeEvalSelection(db, user, submissionIds);
  return evaluateCandidates(db, candidates);
});
