import { requireGradingAccess } from "@/server/gradings/grading-access";
import { apiRoute } from "@/server/http/route";
import { attachSubmissionArchive } from "@/server/submissions/attach-archive";
import { readArchiveUpload } from "@/server/submissions/upload";
import { AppError } from "@/lib/errors";

type Params = { gradingId: string };

/**
 * Attaches the submitted repository (`submission`: .tar.gz, .tar or .zip, multipart) to the run
 * this grading grades, replacing any archive stored before (staff).
 */
export const POST = apiRoute<Params>({}, async ({ req, store, user, params }) => {
  const { grading, role } = await requireGradingAccess(store, user, params.gradingId, "view");
  if (role !== "staff") throw new AppError("forbidden", "Only staff attach submission archives");
  const upload = await readArchiveUpload(req);
  return attachSubmissionArchive(store, { submissionId: grading.submissionId, upload });
});
