import { apiRoute } from "@/server/http/route";
import { listNotifications } from "@/server/notifications/inbox";

/** The signed-in user's inbox: their newest notifications (on papers they may still see) and the unread count. */
export const GET = apiRoute<Record<string, never>>({}, async ({ store, user }) => listNotifications(store, user.id));
