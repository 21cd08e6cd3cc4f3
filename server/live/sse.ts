import "server-only";
import type { Store } from "@/db/client";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { joinPresence, leavePresence, listPresence, refreshPresence } from "./presence";
import { followRubric, getOperationsSinceShared, noteAnnouncedRevision, type LiveSignal } from "./rubric-feed";

const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

/**
 * A Server-Sent Events stream of a paper's rubric: first the catch-up of operations after `since`
 * from the log, then each new operation as it is announced (`op`; its `id` is its revision, so a
 * browser's EventSource that reconnects resumes where it stopped, by Last-Event-ID); who is on the
 * rubric and where (`presence`, the whole list each time it changes); and a nudge to refetch when
 * the review status (`review`) or the comments (`comments`) change. With `presence`, the stream's
 * session is on the rubric for as long as it is open.
 */
export function rubricEventStream(input: {
  store: Store;
  paperId: string;
  since: number;
  signal: AbortSignal;
  databaseUrl?: string;
  presence?: { sessionId: string; userId: string; name: string };
}): ReadableStream<Uint8Array> {
  let last = input.since;
  let stop: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let sending = false;
  let again = false;
  let close = () => {};
  let rubricId: string | null = null;

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // The stream was closed under us: the next abort cleans up.
        }
      };
      // One flush at a time; announcements that arrive meanwhile cause one more pass.
      const flush = async () => {
        if (sending) {
          again = true;
          return;
        }
        sending = true;
        try {
          do {
            again = false;
            rubricId ??= (await getRubricByPaperId(input.store.db, input.paperId))?.id ?? null;
            if (!rubricId) break;
            for (;;) {
              const ops = await getOperationsSinceShared(input.store.db, input.paperId, rubricId, last);
              for (const op of ops) {
                write(`id: ${op.revision}\nevent: op\ndata: ${JSON.stringify(op)}\n\n`);
                last = op.revision;
              }
              if (ops.length < 500) break;
            }
          } while (again && !input.signal.aborted);
        } catch (err) {
          write(`event: problem\ndata: ${JSON.stringify({ message: (err as Error).message })}\n\n`);
        } finally {
          sending = false;
        }
      };
      const onSignal = (signal: LiveSignal) => {
        if (signal.type === "revision") {
          noteAnnouncedRevision(input.paperId, signal.revision);
          void flush();
        }
        else if (signal.type === "presence") write(`event: presence\ndata: ${JSON.stringify(listPresence(input.paperId))}\n\n`);
        else write(`event: ${signal.type}\ndata: {}\n\n`);
      };
      const presence = input.presence;
      let joined: { sessionId: string; connectionId: string } | null = null;
      let closed = false;
      close = () => {
        if (closed) return;
        closed = true;
        stop?.();
        if (heartbeat) clearInterval(heartbeat);
        if (joined) void leavePresence(input.store, input.paperId, joined).catch(() => {});
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      };
      input.signal.addEventListener("abort", close, { once: true });
      write(`retry: 2000\nevent: ready\ndata: ${JSON.stringify({ since: last })}\n\n`);
      stop = await followRubric(input.paperId, onSignal, { databaseUrl: input.databaseUrl });
      if (input.signal.aborted) return close();
      heartbeat = setInterval(() => {
        write(": keep-alive\n\n");
        if (presence) void refreshPresence(input.store, input.paperId, presence.sessionId);
      }, HEARTBEAT_MS);
      // Joining tells everyone, this stream included (it is already following), who is here.
      if (presence) {
        joined = { sessionId: presence.sessionId, ...(await joinPresence(input.store, input.paperId, presence)) };
        if (closed) void leavePresence(input.store, input.paperId, joined).catch(() => {});
      } else write(`event: presence\ndata: ${JSON.stringify(listPresence(input.paperId))}\n\n`);
      await flush();
    },
    cancel() {
      close();
    },
  });
}
