import { z } from "zod";
import { text } from "@/lib/text";
import { requireGradingAccess } from "@/server/gradings/grading-access";
import { readSubmissionFiles } from "@/server/gradings/read-gradings";
import { apiRoute } from "@/server/http/route";

type Params = { gradingId: string };

const filesQuerySchema = z.object({
  path: text().min(1).max(4096).optional(),
  log: z.enum(["1"], { error: "must be 1" }).optional(),
});

/**
 * The submitted repository of the graded run: the listing (`?path=` one file's content,
 * `?log=1` the reproduce.log).
 */
export const GET = apiRoute<Params>({}, async ({ req, store, user, params }) => {
  const query = filesQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const { grading } = await requireGradingAccess(store, user, params.gradingId, "view");
  return readSubmissionFiles(store, grading.submissionId, query);
});
