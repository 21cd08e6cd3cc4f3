import { regradeRequestSchema } from "@/lib/grading/rubric-consequences";
import { regradeAffectedLeaves } from "@/server/judge/runs/regrade-affected-leaves";
import { listRubricConsequences } from "@/server/gradings/rubric-consequences";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";

type Params = { paperId: string };

/**
 * What the live rubric does to the paper's gradings: per grading whose score moves, its score now
 * and under the live rubric (or the range while leaves need verdicts). Staff and the paper's
 * authors, who change the rubric; graders see only the gradings assigned to them.
 */
export const GET = apiRoute<Params>({ paper: "edit-rubric" }, async ({ store, paper }) =>
  listRubricConsequences(store, paper.id),
);

/** Staff: re-pin the named gradings to the live rubric and re-grade only their affected leaves. */
export const POST = apiRoute<Params>({ paper: "manage" }, async ({ req, store, paper, user }) => {
  const request = await parseJsonBody(req, regradeRequestSchema);
  return { results: await regradeAffectedLeaves(store, paper.id, request, user.id) };
});
