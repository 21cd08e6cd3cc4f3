import { z } from "zod";
import { parseJsonBody } from "@/server/http/body";
import {
  judgeEvalCandidatesOf,
  judgeEvalPapers,
  judgeEvalSelection,
  submissionIdsSchema,
} from "@/server/access/judge-eval-access";
import { apiRoute } from "@/server/http/route";
import { evaluateCandidates } from "@/server/judge/eval/evaluate";

/**
 * The submissions JudgeEval can compare (`?paper=<id>`, repeatable; default every paper the user
 * may evaluate): each with a human truth (an imported human grading, or a review that covered every
 * leaf) and a judge grading. Staff: any paper; authors: their papers.
 */
export const GET = apiRoute({}, async ({ req, store, user }) => {
  const papers = await judgeEvalPapers(store, user, req.nextUrl.searchParams.getAll("paper"));
  return { candidates: await judgeEvalCandidatesOf(store, papers) };
});

const evaluateBody = z.object({ submissionIds: submissionIdsSchema });

/**
 * JudgeEval pooled over the submissions chosen (`{ submissionIds }`): PaperBench's metrics
 * overall and per task category, the confusion matrix, each submission on its own, and the
 * disagreements ranked by how much each moves the final score.
 */
export const POST = apiRoute({}, async ({ req, store, user }) => {
  const { submissionIds } = await parseJsonBody(req, evaluateBody);
  const candidates = await judgeEvalSelection(store, user, submissionIds);
  return evaluateCandidates(store, candidates);
});
