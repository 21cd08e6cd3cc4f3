import "server-only";
import type { Store } from "@/db/client";
import type { RubricStatus } from "@/db/schema";
import { getRubricReview, setRubricStatus, type RubricReview } from "@/db/queries/rubric-review";
import { lockRubricById } from "@/db/queries/rubrics";
import { AppError } from "@/lib/errors";
import { announceLive } from "@/server/live/rubric-feed";
import { announceNotifications, notifyReturnedToDraft } from "@/server/notifications/notify";
import { requireRubric } from "./read-rubric";
import { saveVersionInTransaction } from "./save-rubric-version";

export type ReviewAction = "request_review" | "sign_off" | "return_to_draft";

const NEXT_STATUS: Record<ReviewAction, RubricStatus> = { request_review: "in_review", sign_off: "signed_off", return_to_draft: "draft" };

/**
 * Moves a paper's rubric through review, and tells everyone on the rubric. A sign-off is of one
 * revision (the one the person looked at: a later change refuses it) and saves that revision as
 * a named version.
 */
export async function changeRubricStatus(
  store: Store,
  input: { paperId: string; action: ReviewAction; revision: number; userId: string; userLabel: string },
): Promise<RubricReview> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  const notified = await store.db.transaction(async (tx) => {
    const rubric = await lockRubricById(tx, rubricId, "update");
    if (input.revision !== rubric.revision) {
      throw new AppError("conflict", `The rubric changed since you looked (it is at revision ${rubric.revision}); review it again`);
    }
    const next = NEXT_STATUS[input.action];
    if (next === rubric.status) throw new AppError("conflict", `The rubric is already ${rubric.status.replace("_", " ")}`);
    let versionId: string | null = null;
    if (input.action === "sign_off") {
      const version = await saveVersionInTransaction(tx, {
        rubricId: rubric.id,
        name: `Signed off by ${input.userLabel} (revision ${rubric.revision})`,
        userId: input.userId,
      });
      versionId = version.id;
    }
    await setRubricStatus(tx, { rubricId: rubric.id, revision: rubric.revision, status: next, userId: input.userId, versionId });
    if (next !== "draft") return [];
    const reason = `It was ${rubric.status.replace("_", " ")} at revision ${rubric.revision}`;
    return notifyReturnedToDraft(tx, { actorId: input.userId, paperId: input.paperId, reason });
  });
  await announceLive(store, input.paperId, { type: "review" });
  await announceNotifications(store, notified);
  return getRubricReview(store.db, rubricId);
}
