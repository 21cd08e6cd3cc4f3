import "server-only";
import type { Store } from "@/db/client";
import { getUnreadNotificationStateForSession } from "@/db/queries/notifications";
import type { SessionRef } from "@/db/queries/papers";
import type { UnreadState } from "@/lib/notifications/schemas";
import { recheckingEventStream } from "@/server/live/rechecking-stream";
import { followAccess } from "@/server/live/rubric-feed";
import { followNotifications } from "./feed";

/**
 * How often an open inbox re-reads its state without being told: a lost announcement, a session
 * that expired, a paper the user left (its notifications drop out of the count), a change made
 * inside another service's transaction. One query, like the rubric stream's access re-check.
 */
const RECHECK_MS = 1_000;
const ACCESS_ENDED = `event: access-ended\ndata: ${JSON.stringify({ message: "Your session ended (signed out or account disabled)" })}\n\n`;

/**
 * A Server-Sent Events stream of one user's inbox: `unread` ({ unread, latest }) at once and
 * whenever the unread count or the newest notification changes. The count only counts what the
 * user may still see (see listVisibleNotifications). It is re-read when the user's notifications
 * or access change (announced from any instance) and every second; once the session is no longer
 * live it sends `access-ended` and closes.
 */
export function notificationEventStream(input: {
  store: Store;
  viewer: SessionRef;
  signal: AbortSignal;
  databaseUrl?: string;
  /** RECHECK_MS unless told; null: no re-read without an announcement (tests). */
  recheckMs?: number | null;
}): ReadableStream<Uint8Array> {
  let sent: UnreadState | null = null;
  return recheckingEventStream({
    signal: input.signal,
    recheckMs: input.recheckMs === undefined ? RECHECK_MS : input.recheckMs,
    follow: (onChange) =>
      Promise.all([
        followNotifications(input.viewer.userId, onChange, { databaseUrl: input.databaseUrl }),
        followAccess(input.viewer.userId, onChange, { databaseUrl: input.databaseUrl }),
      ]),
    check: async (write) => {
      const state = await getUnreadNotificationStateForSession(input.store.db, input.viewer);
      if (!state) {
        write(ACCESS_ENDED);
        return false;
      }
      if (sent?.unread !== state.unread || sent.latest !== state.latest) {
        write(`event: unread\ndata: ${JSON.stringify(state)}\n\n`);
        sent = state;
      }
      return true;
    },
  });
}
