import "server-only";
import type { Store } from "@/db/client";
import { getJobById, listLogChunksAfter } from "@/db/queries/jobs";
import type { SessionRef } from "@/db/queries/papers";
import { sessionCanAccessPaper } from "@/server/access/paper-session-access";
import { recheckingEventStream } from "@/server/live/rechecking-stream";
import { followAccess } from "@/server/live/rubric-feed";
import { followJob } from "./job-feed";

export interface LogCursor {
  attempt: number;
  seq: number;
}

/** `Last-Event-ID` / `?after=` as `attempt:seq`; the start otherwise. */
export function parseLogCursor(value: string | null): LogCursor {
  const m = value?.match(/^(\d+):(-?\d+)$/);
  return m ? { attempt: Number(m[1]), seq: Number(m[2]) } : { attempt: 0, seq: -1 };
}

/**
 * A job's log and state over Server-Sent Events: `log` events (`{attempt, seq, text}`, id
 * `attempt:seq`, so a reconnect resumes after the last one) as the runner's chunks arrive from any
 * instance, and `job` (`{status, attempt, exitCode, cancelRequested}`) when the state changes.
 * Access is checked on every look: once the session or the paper membership is gone it sends
 * `access-ended` and closes.
 */
export function jobLogEventStream(input: {
  store: Store;
  viewer: SessionRef;
  jobId: string;
  paperId: string;
  after: LogCursor;
  signal: AbortSignal;
  databaseUrl?: string;
}): ReadableStream<Uint8Array> {
  let cursor = input.after;
  let sentState = "";
  return recheckingEventStream({
    signal: input.signal,
    follow: (onChange) =>
      Promise.all([
        followJob(input.jobId, onChange, { databaseUrl: input.databaseUrl }),
        followAccess(input.viewer.userId, onChange, { databaseUrl: input.databaseUrl }),
      ]),
    check: async (write) => {
      if (!(await sessionCanAccessPaper(input.store, input.viewer, input.paperId, "view"))) {
        write(`event: access-ended\ndata: ${JSON.stringify({ message: "You can no longer see this job" })}\n\n`);
        return false;
      }
      for (;;) {
        const chunks = await listLogChunksAfter(input.store.db, input.jobId, cursor);
        for (const c of chunks) write(`event: log\nid: ${c.attempt}:${c.seq}\ndata: ${JSON.stringify(c)}\n\n`);
        if (chunks.length > 0) cursor = { attempt: chunks.at(-1)!.attempt, seq: chunks.at(-1)!.seq };
        if (chunks.length < 500) break;
      }
      const job = await getJobById(input.store.db, input.jobId);
      if (!job) return false;
      const state = JSON.stringify({
        status: job.status,
        attempt: job.attempts,
        exitCode: job.exitCode,
        cancelRequested: job.cancelRequestedAt !== null,
      });
      if (state !== sentState) {
        write(`event: job\ndata: ${state}\n\n`);
        sentState = state;
      }
      return true;
    },
  });
}
