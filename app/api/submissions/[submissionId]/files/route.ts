import { z } from "zod";
import { text } from "@/lib/text";
import { requireSubmissionAccess } from "@/server/access/submission-access";
import { readSubmissionFiles } from "@/server/gradings/read-gradings";
import { apiRoute } from "@/server/http/route";

const filesQuerySchema = z.object({
  path: text().min(1).max(4096).optional(),
  log: z.enum(["1"], { error: "must be 1" }).optional(),
});

/** The submitted repository, as the review page reads it: the listing, `?path=` one file's content, `?log=1` an imported reproduce.log. */
export const GET = apiRoute<{ submissionId: string }>({}, async ({ req, params, store, user }) => {
  const query = filesQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const { submission } = await requireSubmissionAccess(store, user, params.submissionId, "view");
  return readSubmissionFiles(store, submission.id, query);
});
