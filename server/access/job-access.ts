import "server-only";
import type { Store } from "@/db/client";
import { getJobById } from "@/db/queries/jobs";
import { getPaperRole } from "@/db/queries/papers";
import type { Job, User } from "@/db/schema";
import { canAccessPaper, effectiveRole } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/uuid";


/**
 * A job of a `/api/jobs/<id>` route, once the user may see it: staff, and the members of its paper
 * (a reproduction's log is the submission's, which they review). Anyone else learns nothing of it,
 * not even that it exists. Acting on a job (cancel, retry) is staff's.
 */
export async function requireJobAccess(store: Store, user: User, jobId: string, access: "view" | "manage"): Promise<Job> {
  const job = isUuid(jobId) ? await getJobById(store.db, jobId) : null;
  if (!job) throw new AppError("not_found", "No such job");
  if (user.isStaff) return job;
  const role = effectiveRole(false, await getPaperRole(store.db, job.paperId, user.id));
  if (!canAccessPaper(role, "view")) throw new AppError("not_found", "No such job");
  if (access === "manage") throw new AppError("forbidden", "Only staff can cancel or retry a job");
  return job;
}
