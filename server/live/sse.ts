import "server-only";
import type { Store } from "@/db/client";
import type { SessionRef } from "@/db/queries/papers";
import { getRubricByPaperId } from "@/db/queries/rubrics";
import { sessionCanAccessPaper } from "@/server/access/paper-session-access";
import { joinPresence, leavePresence, listPresence, refreshPresence } from "./presence";
import {
  followAccess,
  followRubric,
  getOperationsSinceShared,
  noteAnnouncedRevision,
  type LiveSignal,
  type RevisionAuthor,
} from "./rubric-feed";

const HEARTBEAT_MS = 15_000;
/** How often an open stream re-checks its access without being told (a lost signal, an expired session). */
const ACCESS_RECHECK_MS = 1_000;
/** The last event of a stream whose viewer lost access: EventSource then reconnects, and is refused. */
const ACCESS_ENDED = `event: access-ended\ndata: ${JSON.stringify({ message: "Your access to this paper ended (signed out, removed from the paper, or account disabled)" })}\n\n`;
const encoder = new TextEncoder();

/**
 * A Server-Sent Events stream of a paper's rubric: first the catch-up of operations after `since`
 * from the log, then each new operation as it is announced (`op`; its `id` is its revision, so a
 * browser's EventSource that reconnects resumes where it stopped, by Last-Event-ID); who is on the
 * rubric and where (`presence`, the whole list each time it changes); and a nudge to refetch when
 * the review status (`review`) or the comments (`comments`) change. With `presence`, the stream's
 * session is on the rubric for as long as it is open.
 *
 * The stream sends only while its viewer may see the paper: the session still live (not signed out,
 * revoked, expired; the user not disabled) and the user still a member (or staff). It re-checks
 * (one query) when told that the user's access changed (announceAccessChange, from any instance),
 * every second regardless, and before sending when the last check is older than a second. When
 * access is gone it sends `access-ended` and closes.
 */
export function rubricEventStream(input: {
  store: Store;
  paperId: string;
  since: number;
  signal: AbortSignal;
  /** Whose stream this is: the session the request came with. */
  viewer: SessionRef;
  databaseUrl?: string;
  presence?: { sessionId: string; userId: string; name: string };
}): ReadableStream<Uint8Array> {
  let last = input.since;
  let stop: (() => void) | null = null;
  let stopAccess: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let recheck: ReturnType<typeof setInterval> | null = null;
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
      let closed = false;
      // The request was let in just now (apiRoute checked the same things): that is the first verdict.
      let verdict = Promise.resolve(true);
      let checkedAt = performance.now();
      const checkAccess = (): Promise<boolean> => {
        checkedAt = performance.now();
        verdict = sessionCanAccessPaper(input.store, input.viewer, input.paperId, "view").then(
          (ok) => {
            if (!ok && !closed) {
              write(ACCESS_ENDED);
              close();
            }
            return ok && !closed;
          },
          // The database failed: end the stream unanswered; the browser reconnects and is checked afresh.
          () => {
            close();
            return false;
          },
        );
        return verdict;
      };
      const allowed = (): Promise<boolean> => {
        if (closed) return Promise.resolve(false);
        return performance.now() - checkedAt < ACCESS_RECHECK_MS ? verdict.then((ok) => ok && !closed) : checkAccess();
      };
      const send = (text: string) => {
        void allowed().then((ok) => ok && write(text));
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
              if (!(await allowed())) return;
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
      // Whether a revision is the next one and was made by this stream's own editor (see RevisionAuthor).
      const isOwnNext = ({ revision, by }: { revision: number; by?: RevisionAuthor }) =>
        !sending &&
        revision === last + 1 &&
        by !== undefined &&
        by.userId === input.viewer.userId &&
        by.editorSession === input.presence?.sessionId;
      const onSignal = (signal: LiveSignal) => {
        if (signal.type === "revision") {
          noteAnnouncedRevision(input.paperId, signal.revision);
          // This stream's own editor made the next revision: its answer told the editor, so the
          // stream moves past it unsent. Anything less plain (a gap, a read under way) reads as usual.
          if (isOwnNext(signal)) last = signal.revision;
          else void flush();
        } else if (signal.type === "presence")
          send(`event: presence\ndata: ${JSON.stringify(listPresence(input.paperId))}\n\n`);
        else if (signal.type === "resync") {
          // Other instances' news may have been lost: the operations since this stream's last one,
          // who is here, and a refetch of the review status and the comments.
          void flush();
          void checkAccess();
          send(`event: presence\ndata: ${JSON.stringify(listPresence(input.paperId))}\n\n`);
          send(`event: review\ndata: {}\n\n`);
          send(`event: comments\ndata: {}\n\n`);
        } else if (signal.type !== "access") send(`event: ${signal.type}\ndata: {}\n\n`);
      };
      const presence = input.presence;
      let joined: { sessionId: string; connectionId: string } | null = null;
      close = () => {
        if (closed) return;
        closed = true;
        stop?.();
        stopAccess?.();
        if (heartbeat) clearInterval(heartbeat);
        if (recheck) clearInterval(recheck);
        if (joined) void leavePresence(input.store, input.paperId, joined).catch(() => {});
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      };
      input.signal.addEventListener("abort", close, { once: true });
      write(`retry: 2000\nevent: ready\ndata: ${JSON.stringify({ since: last })}\n\n`);
      [stop, stopAccess] = await Promise.all([
        followRubric(input.paperId, onSignal, { databaseUrl: input.databaseUrl }),
        followAccess(input.viewer.userId, () => void checkAccess(), { databaseUrl: input.databaseUrl }),
      ]);
      if (input.signal.aborted) return close();
      // A change announced before this stream was following would go unheard: check once now, and
      // have the page read its review status and comments again (a sign-off made while the stream
      // connected left another editor saying "Draft"). The operations catch up from `since` below.
      if (!(await checkAccess())) return;
      send(`event: review\ndata: {}\n\n`);
      send(`event: comments\ndata: {}\n\n`);
      recheck = setInterval(() => void checkAccess(), ACCESS_RECHECK_MS);
      heartbeat = setInterval(() => {
        write(": keep-alive\n\n");
        if (presence) void refreshPresence(input.store, input.paperId, presence.sessionId);
      }, HEARTBEAT_MS);
      // Joining tells everyone, this stream included (it is already following), who is here.
      if (presence) {
        joined = { sessionId: presence.sessionId, ...(await joinPresence(input.store, input.paperId, presence)) };
        if (closed) void leavePresence(input.store, input.paperId, joined).catch(() => {});
      } else send(`event: presence\ndata: ${JSON.stringify(listPresence(input.paperId))}\n\n`);
      await flush();
    },
    cancel() {
      close();
    },
  });
}
