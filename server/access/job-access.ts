import "server-only";
import type { Store } from "@/db/client";
import { getJobById } from "@/db/queries/jobs";
import type { Job, User } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/uuid";
import { requirePaperItemRole } from "@/server/access/paper-item-access";

/**
 * A job of a `/api/jobs/<id>` route, once the user may see it: staff, and the members of its paper
 * (a reproduction's log is the submission's, which they review). Anyone else learns nothing of it,
 * not even that it exists. Acting on a job (cancel, retry) is staff's.
 */
export async function requireJobAccess(
  store: Store,
  user: User,
  jobId: string,
  access: "view" | "manage",
): Promise<Job> {
  const job = isUuid(jobId) ? await getJobById(store.db, jobId) : null;
  if (!job) throw new AppError("not_found", "No such job");
  await requirePaperItemRole(store, user, job.paperId, access, { item: "job", action: "cancel or retry a job" });
  return job;
}
