import { z } from "zod";
import { eventStreamResponse } from "@/server/http/event-stream-response";
import { apiRoute, requireSession } from "@/server/http/route";
import { readServerEnv } from "@/lib/env";
import { presenceSessionSchema } from "@/lib/live/presence-schemas";
import { rubricEventStream } from "@/server/live/sse";
import { userDisplayName } from "@/lib/users/display-name";

type Params = { paperId: string };

const sinceSchema = z.coerce.number({ error: "must be a revision number" }).int().min(0, "must be a revision number");
const sessionSchema = presenceSessionSchema.optional();

/**
 * Follow a rubric over Server-Sent Events: the operations after `?since=<revision>` (or the
 * reconnecting browser's Last-Event-ID), then each new one as it is applied, by anyone, on any
 * studio instance. With `?session=<id>` (one per open editor) the stream also puts its user on
 * the rubric's presence list for as long as it is open. It ends with `access-ended` within a second
 * of the user losing access to the paper.
 */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ req, signal, store, paper, user, sessionId }) => {
  const since = sinceSchema.parse(req.headers.get("last-event-id") ?? req.nextUrl.searchParams.get("since") ?? 0);
  const editorSession = sessionSchema.parse(req.nextUrl.searchParams.get("session") ?? undefined);
  const stream = rubricEventStream({
    store,
    presence: editorSession ? { sessionId: editorSession, userId: user.id, name: userDisplayName(user) } : undefined,
    paperId: paper.id,
    since,
    signal,
    // The stream ends when this session or the user's membership does (sign-out, removal, disabling).
    viewer: { userId: user.id, sessionId: requireSession(sessionId) },
    databaseUrl: readServerEnv().DATABASE_URL,
  });
  return eventStreamResponse(stream);
});
