import "server-only";
import type { Store } from "@/db/client";
import { getUnreadNotificationStateForSession } from "@/db/queries/notifications";
import type { SessionRef } from "@/db/queries/papers";
import type { UnreadState } from "@/lib/notifications/schemas";
import { followAccess } from "@/server/live/rubric-feed";
import { followNotifications } from "./feed";

const HEARTBEAT_MS = 15_000;
/**
 * How often an open inbox re-reads its state without being told: a lost announcement, a session
 * that expired, a paper the user left (its notifications drop out of the count), a change made
 * inside another service's transaction. One query, like the rubric stream's access re-check.
 */
const RECHECK_MS = 1_000;
const ACCESS_ENDED = `event: access-ended\ndata: ${JSON.stringify({ message: "Your session ended (signed out or account disabled)" })}\n\n`;
const encoder = new TextEncoder();

/**
 * A Server-Sent Events stream of one user's inbox: `unread` ({ unread, latest }) at once and
 * whenever the unread count or the newest notification changes. The count only counts what the
 * user may still see (see listVisibleNotifications). It is re-read when the user's notifications
 * or access change (announced from any instance) and every second; once the session is no longer
 * live it sends `access-ended` and closes.
 */
export function notificationEventStream(input: { store: Store; viewer: SessionRef; signal: AbortSignal; databaseUrl?: string }): ReadableStream<Uint8Array> {
  let close = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // Closed under us: the abort cleans up.
        }
      };
      let sent: UnreadState | null = null;
      let reading = false;
      let again = false;
      // One read at a time; a change heard meanwhile causes one more.
      const check = async () => {
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        try {
          do {
            again = false;
            const state = await getUnreadNotificationStateForSession(input.store.db, input.viewer);
            if (closed) return;
            if (!state) {
              write(ACCESS_ENDED);
              return close();
            }
            if (sent?.unread !== state.unread || sent.latest !== state.latest) {
              write(`event: unread\ndata: ${JSON.stringify(state)}\n\n`);
              sent = state;
            }
          } while (again && !closed);
        } catch {
          // The database failed: end the stream; the browser reconnects and is checked afresh.
          close();
        } finally {
          reading = false;
        }
      };
      const stops: (() => void)[] = [];
      const timers: ReturnType<typeof setInterval>[] = [];
      close = () => {
        if (closed) return;
        closed = true;
        for (const stop of stops) stop();
        for (const t of timers) clearInterval(t);
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      };
      input.signal.addEventListener("abort", close, { once: true });
      write("retry: 2000\n\n");
      const onChange = () => void check();
      const followed = await Promise.all([
        followNotifications(input.viewer.userId, onChange, { databaseUrl: input.databaseUrl }),
        followAccess(input.viewer.userId, onChange, { databaseUrl: input.databaseUrl }),
      ]);
      stops.push(...followed);
      // Aborted while it started following: close() ran before these existed.
      if (closed) return followed.forEach((stop) => stop());
      timers.push(
        setInterval(onChange, RECHECK_MS),
        setInterval(() => write(": keep-alive\n\n"), HEARTBEAT_MS),
      );
      await check();
    },
    cancel() {
      close();
    },
  });
}
