import { readServerEnv } from "@/lib/env";
import { eventStreamResponse } from "@/server/http/event-stream-response";
import { apiRoute, requireSession } from "@/server/http/route";
import { notificationEventStream } from "@/server/notifications/stream";

/**
 * Follow the caller's inbox over Server-Sent Events: `unread` at once and whenever it changes, from
 * any studio instance. It ends with `access-ended` within a second of the session ending.
 */
export const GET = apiRoute<Record<string, never>>({}, async ({ signal, store, user, sessionId }) => {
  const stream = notificationEventStream({
    store,
    viewer: { userId: user.id, sessionId: requireSession(sessionId) },
    signal,
    databaseUrl: readServerEnv().DATABASE_URL,
  });
  return eventStreamResponse(stream);
});
