import { z } from "zod";
import { getSubmissionById, getSubmissionFileContent, getSubmissionReproduceLog, listSubmissionFiles } from "@/db/queries/submissions";
import { requireGradingAccess } from "@/server/access/grading-access";
import { apiRoute } from "@/server/http/route";

type Params = { gradingId: string };

const filesQuerySchema = z.object({
  path: z.string().min(1).max(4096).optional(),
  log: z.enum(["1"], { error: "must be 1" }).optional(),
});

/**
 * The submitted repository of the graded run: the listing (`?path=` one file's content,
 * `?log=1` the reproduce.log).
 */
export const GET = apiRoute<Params>({}, async ({ req, db, user, params }) => {
  const query = filesQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const { grading } = await requireGradingAccess(db, user, params.gradingId, "view");
  if (query.log) return { reproduceLog: await getSubmissionReproduceLog(db, grading.submissionId) };
  if (query.path) return { file: await getSubmissionFileContent(db, grading.submissionId, query.path) };
  const submission = (await getSubmissionById(db, grading.submissionId))!;
  return {
    archiveName: submission.archiveName,
    archiveBytes: submission.archiveBytes,
    notes: submission.archiveNotes,
    hasReproduceLog: submission.reproduceLog !== null,
    files: await listSubmissionFiles(db, grading.submissionId),
  };
});
