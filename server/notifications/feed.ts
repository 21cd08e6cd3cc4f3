import "server-only";
import type { Store } from "@/db/client";
import { announceLive, followRubric } from "@/server/live/rubric-feed";

/**
 * A user's notifications on the live feed: one topic per user (a paper's topic is its id, which has
 * no colon), so every inbox of theirs, on every instance (NOTIFY on PostgreSQL), hears of a change.
 */
const notificationTopic = (userId: string) => `notifications:${userId}`;

/** Tells the users' open inboxes that their notifications changed; after the transaction that changed them commits. */
export async function announceNotifications(store: Store, userIds: readonly string[]): Promise<void> {
  await Promise.all(
    [...new Set(userIds)].map((id) => announceLive(store, notificationTopic(id), { type: "notifications" })),
  );
}

/** Calls `listener` whenever the user's notifications change, until the returned function is called. */
export function followNotifications(
  userId: string,
  listener: () => void,
  opts: { databaseUrl?: string } = {},
): Promise<() => void> {
  return followRubric(notificationTopic(userId), listener, opts);
}
