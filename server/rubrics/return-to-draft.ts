import "server-only";
import type { Executor } from "@/db/client";
import type { RubricStatus } from "@/db/schema";
import { setRubricStatus } from "@/db/queries/rubric-review";
import { notifyReturnedToDraft } from "@/server/notifications/notify";

/**
 * Any change to a signed-off rubric makes it a draft again, in the same transaction as the change,
 * and tells the paper's authors (but the one who changed it). Their open inboxes find the
 * notification at their next check, within a second: the change's caller announces the revision,
 * not the notification.
 */
export async function returnToDraftAfterChange(
  tx: Executor,
  rubric: { id: string; revision: number; status: RubricStatus },
  change: { paperId: string; userId: string | null },
): Promise<void> {
  if (rubric.status !== "signed_off") return;
  const reason = `Changed after sign-off (revision ${rubric.revision})`;
  await setRubricStatus(tx, { rubricId: rubric.id, revision: rubric.revision, status: "draft", reason });
  await notifyReturnedToDraft(tx, { actorId: change.userId, paperId: change.paperId, reason });
}
