import "server-only";
import type { Store } from "@/db/client";
import {
  getUnreadNotificationState,
  listVisibleNotifications,
  markNotificationsRead,
} from "@/db/queries/notifications";
import {
  NOTIFICATION_PAGE,
  type MarkReadRequest,
  type NotificationList,
  type UnreadState,
} from "@/lib/notifications/schemas";
import { userDisplayName } from "@/lib/users/display-name";
import { announceNotifications } from "./feed";

/** The user's inbox: their newest notifications they may still see, and how many of those are unread. */
export async function listNotifications(store: Store, userId: string): Promise<NotificationList> {
  const [rows, { unread }] = await Promise.all([
    listVisibleNotifications(store.db, userId, NOTIFICATION_PAGE),
    getUnreadNotificationState(store.db, userId),
  ]);
  return {
    unread,
    items: rows.map(({ actorName, actorEmail, createdAt, readAt, ...n }) => ({
      ...n,
      actor: actorEmail === null ? null : userDisplayName({ name: actorName, email: actorEmail }),
      createdAt: createdAt.toISOString(),
      readAt: readAt?.toISOString() ?? null,
    })),
  };
}

/** Marks the user's own notifications read (ids of others' are ignored); their other open inboxes hear of it. */
export async function markRead(store: Store, userId: string, which: MarkReadRequest): Promise<UnreadState> {
  const changed = await markNotificationsRead(store.db, userId, which);
  if (changed > 0) await announceNotifications(store, [userId]);
  return getUnreadNotificationState(store.db, userId);
}
