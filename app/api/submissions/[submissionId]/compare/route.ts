import { z } from "zod";
import { apiRoute } from "@/server/http/route";
import { compareSubmissionGradings } from "@/server/gradings/compare-gradings";

type Params = { submissionId: string };

const compareQuerySchema = z.object({
  a: z.uuid("must be a grading id").optional(),
  b: z.uuid("must be a grading id").optional(),
});

/**
 * Two gradings of the submission leaf by leaf (`?a=&b=`, else its first two), differences first,
 * with the gradings the caller may read in full to pick from. Members of its paper; a grader
 * only gradings assigned to them in full.
 */
export const GET = apiRoute<Params>({}, async ({ req, store, user, params }) => {
  const query = compareQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  return compareSubmissionGradings(store, user, params.submissionId, query);
});
