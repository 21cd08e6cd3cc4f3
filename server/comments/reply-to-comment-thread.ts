import "server-only";
import type { Store } from "@/db/client";
import { insertComment, setCommentThreadResolution } from "@/db/queries/rubric-comments";
import { announceLive } from "@/server/live/rubric-feed";
import { announceNotifications, notifyMentions } from "@/server/notifications/notify";
import { requireRubric } from "@/server/rubrics/read-rubric";
import { resolveMentions } from "./mentions";
import { requireThread } from "./require-thread";

/** A reply in a thread; a reply to a resolved thread reopens it (the discussion goes on). Everyone on the rubric hears of it. */
export async function replyToCommentThread(
  store: Store,
  input: { paperId: string; threadId: string; body: string; userId: string },
): Promise<void> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  const { ids: mentions, readable } = await resolveMentions(store.db, input.paperId, input.body);
  const notified = await store.db.transaction(async (tx) => {
    const thread = await requireThread(tx, rubricId, input.threadId);
    await insertComment(tx, { threadId: thread.id, authorId: input.userId, body: input.body, mentions });
    if (thread.resolvedAt) await setCommentThreadResolution(tx, thread.id, null);
    return notifyMentions(tx, {
      actorId: input.userId,
      paperId: input.paperId,
      nodeKey: thread.nodeKey,
      mentions,
      body: readable,
    });
  });
  await announceLive(store, input.paperId, { type: "comments" });
  await announceNotifications(store, notified);
}
