import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { markRead } from "@/server/notifications/inbox";
import { markReadSchema } from "@/lib/notifications/schemas";

/** Marks the caller's notifications read: `{ ids: [...] }` or `{ all: true }`. Answers the new unread state. */
export const POST = apiRoute<Record<string, never>>({}, async ({ req, store, user }) => {
  const body = await parseJsonBody(req, markReadSchema, 64 * 1024);
  return markRead(store, user.id, body);
});
