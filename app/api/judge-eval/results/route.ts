import { z } from "zod";
import { parseJsonBody } from "@/server/http/body";
import {
  judgeEvalCandidatesOf,
  judgeEvalPapers,
  judgeEvalSelection,
  submissionIdsSchema,
} from "@/server/access/judge-eval-access";
import { apiRoute } from "@/server/http/route";
import { judgeEvalResultsFile } from "@/server/judge/eval/evaluate";
import { AppError } from "@/lib/errors";

function download(file: { body: string; fileName: string }): Response {
  return new Response(file.body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${file.fileName.replace(/[^\w.-]+/g, "_")}"`,
    },
  });
}

/**
 * PaperBench's JudgeEval `results.json` for `?submission=<id>` (repeatable) or every comparable
 * submission of `?paper=<id>` (repeatable).
 */
export const GET = apiRoute({}, async ({ req, store, user }) => {
  const params = req.nextUrl.searchParams;
  const submissions = params
    .getAll("submission")
    .flatMap((s) => s.split(","))
    .filter(Boolean);
  let candidates;
  if (submissions.length > 0) {
    candidates = await judgeEvalSelection(
      store,
      user,
      z.object({ submission: submissionIdsSchema }).parse({ submission: submissions }).submission,
    );
  } else {
    const papers = await judgeEvalPapers(store, user, params.getAll("paper"));
    candidates = await judgeEvalCandidatesOf(store, papers);
    if (candidates.length === 0)
      throw new AppError("not_found", "No submission here has both a human and a judge grading to compare");
  }
  return download(await judgeEvalResultsFile(store, candidates));
});

const body = z.object({ submissionIds: submissionIdsSchema });

/** The same for a long list of submissions (`{ submissionIds }`). */
export const POST = apiRoute({}, async ({ req, store, user }) => {
  const { submissionIds } = await parseJsonBody(req, body);
  return download(await judgeEvalResultsFile(store, await judgeEvalSelection(store, user, submissionIds)));
});
