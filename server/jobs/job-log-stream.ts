import "server-only";
import type { Store } from "@/db/client";
import { getJobById, listLogChunksAfter } from "@/db/queries/jobs";
import type { SessionRef } from "@/db/queries/papers";
import { sessionCanAccessPaper } from "@/server/access/paper-session-access";
import { followAccess } from "@/server/live/rubric-feed";
import { followJob } from "./job-feed";

const HEARTBEAT_MS = 15_000;
/** Re-reads without being told (a lost announcement, a session that ended, a membership removed). */
const RECHECK_MS = 1_000;
const encoder = new TextEncoder();

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
 * instance, and `job` (`{status, attempt}`) when the state changes. Access is checked again on every
 * change and every second: once the session or the paper membership is gone it sends
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
  let close = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let cursor = input.after;
      let sentState = "";
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // Closed under us: the abort cleans up.
        }
      };
      let reading = false;
      let again = false;
      const check = async () => {
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        try {
          do {
            again = false;
            if (!(await sessionCanAccessPaper(input.store, input.viewer, input.paperId, "view"))) {
              write(`event: access-ended\ndata: ${JSON.stringify({ message: "You can no longer see this job" })}\n\n`);
              return close();
            }
            for (;;) {
              const chunks = await listLogChunksAfter(input.store.db, input.jobId, cursor);
              if (closed) return;
              for (const c of chunks) write(`event: log\nid: ${c.attempt}:${c.seq}\ndata: ${JSON.stringify(c)}\n\n`);
              if (chunks.length > 0) cursor = { attempt: chunks.at(-1)!.attempt, seq: chunks.at(-1)!.seq };
              if (chunks.length < 500) break;
            }
            const job = await getJobById(input.store.db, input.jobId);
            if (!job || closed) return close();
            const state = JSON.stringify({ status: job.status, attempt: job.attempts, exitCode: job.exitCode, cancelRequested: job.cancelRequestedAt !== null });
            if (state !== sentState) {
              write(`event: job\ndata: ${state}\n\n`);
              sentState = state;
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
        followJob(input.jobId, onChange, { databaseUrl: input.databaseUrl }),
        followAccess(input.viewer.userId, onChange, { databaseUrl: input.databaseUrl }),
      ]);
      stops.push(...followed);
      if (closed) return followed.forEach((stop) => stop());
      timers.push(setInterval(onChange, RECHECK_MS), setInterval(() => write(": keep-alive\n\n"), HEARTBEAT_MS));
      await check();
    },
    cancel() {
      close();
    },
  });
}
