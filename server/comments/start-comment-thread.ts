import "server-only";
import type { Store } from "@/db/client";
import { getLiveNodeId, insertComment, insertCommentThread } from "@/db/queries/rubric-comments";
import { AppError } from "@/lib/errors";
import { announceLive } from "@/server/live/rubric-feed";
import { announceNotifications, notifyMentions } from "@/server/notifications/notify";
import { requireRubric } from "@/server/rubrics/read-rubric";
import { resolveMentions } from "./mentions";

/** Starts a thread on a live node of the rubric with its first comment; everyone on the rubric hears of it. */
export async function startCommentThread(
  store: Store,
  input: { paperId: string; nodeKey: string; body: string; userId: string },
): Promise<{ threadId: string }> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  const { ids: mentions, readable } = await resolveMentions(store.db, input.paperId, input.body);
  const { threadId, notified } = await store.db.transaction(async (tx) => {
    const nodeId = await getLiveNodeId(tx, rubricId, input.nodeKey);
    if (nodeId === null) throw new AppError("not_found", "This node is not in the rubric (it may have been deleted)");
    const id = await insertCommentThread(tx, { rubricId, nodeKey: input.nodeKey, nodeId, createdBy: input.userId });
    await insertComment(tx, { threadId: id, authorId: input.userId, body: input.body, mentions });
    const mentioned = await notifyMentions(tx, {
      actorId: input.userId,
      paperId: input.paperId,
      nodeKey: input.nodeKey,
      mentions,
      body: readable,
    });
    return { threadId: id, notified: mentioned };
  });
  await announceLive(store, input.paperId, { type: "comments" });
  await announceNotifications(store, notified);
  return { threadId };
}
