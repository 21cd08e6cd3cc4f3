import { readServerEnv } from "@/lib/env";
import { requireJobAccess } from "@/server/access/job-access";
import { eventStreamResponse } from "@/server/http/event-stream-response";
import { apiRoute, requireSession } from "@/server/http/route";
import { jobLogEventStream, parseLogCursor } from "@/server/live/job-log-stream";

/** Follow a job's log over Server-Sent Events, resuming after `Last-Event-ID` (or `?after=attempt:seq`). */
export const GET = apiRoute<{ jobId: string }>({}, async ({ req, signal, params, store, user, sessionId }) => {
  const job = await requireJobAccess(store, user, params.jobId, "view");
  const after = parseLogCursor(req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("after"));
  return eventStreamResponse(
    jobLogEventStream({
      store,
      viewer: { userId: user.id, sessionId: requireSession(sessionId) },
      jobId: job.id,
      paperId: job.paperId,
      after,
      signal,
      databaseUrl: readServerEnv().DATABASE_URL,
    }),
  );
});
