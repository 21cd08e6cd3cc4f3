import "server-only";
import type { Store } from "@/db/client";
import { getSubmissionById } from "@/db/queries/submissions";
import type { Submission, User } from "@/db/schema";
import type { EffectiveRole } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/uuid";
import { requirePaperItemRole } from "@/server/access/paper-item-access";

/**
 * A submission of a `/api/submissions/<id>` route, once the user may see it: staff, and the members
 * of its paper (graders review its code and its reproduction). Anyone else learns nothing of it, not
 * even that it exists. Acting on it (reproducing it) is staff's.
 */
export async function requireSubmissionAccess(
  store: Store,
  user: User,
  submissionId: string,
  access: "view" | "manage",
): Promise<{ submission: Submission; role: Exclude<EffectiveRole, null> }> {
  const submission = isUuid(submissionId) ? await getSubmissionById(store.db, submissionId) : null;
  if (!submission) throw new AppError("not_found", "No such submission");
  const role = await requirePaperItemRole(store, user, submission.paperId, access, {
    item: "submission",
    action: "reproduce a submission",
  });
  return { submission, role };
}
