import { z } from "zod";
import { apiRoute } from "@/server/http/route";
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
 * the rubric's presence list for as long as it is open.
 */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ req, store, paper, user }) => {
  const since = sinceSchema.parse(req.headers.get("last-event-id") ?? req.nextUrl.searchParams.get("since") ?? 0);
  const sessionId = sessionSchema.parse(req.nextUrl.searchParams.get("session") ?? undefined);
  const stream = rubricEventStream({
    store,
    presence: sessionId ? { sessionId, userId: user.id, name: userDisplayName(user) } : undefined,
    paperId: paper.id,
    since,
    signal: req.signal,
    databaseUrl: readServerEnv().DATABASE_URL,
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
