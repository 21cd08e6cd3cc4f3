import "server-only";

/**
 * The studio's stop. On SIGTERM or SIGINT, Next.js stops accepting connections and waits for every
 * open request to end before it exits. A live stream (an open editor, an inbox) and a long poll (a
 * runner's claim, which the runner renews on the same connection every 30 s) never end on their
 * own, so a studio told to stop never did: Kubernetes waited out the pod's grace period and killed
 * it, as did a test harness stopping a studio that still had a stream or a runner. Long-lived answers therefore end on a request's stop link
 * (`requestStopLink`): a stream closes (the browser's EventSource reconnects, to another instance
 * or to this one once it is back) and a long poll answers at once; answers sent while stopping
 * close their connection.
 *
 * The links are kept in a set and removed when their answer ends, not as listeners of one
 * long-lived AbortSignal: `AbortSignal.any` with such a signal keeps a reference per request for
 * the life of the process (Node 20: 53 MB after a million requests).
 *
 * Kept on globalThis: Next.js loads the route handlers and instrumentation in separate bundles.
 */
const globalForStopping = globalThis as unknown as {
  __rubricStopping?: { stopping: boolean; links: Set<() => void> };
};

function state(): { stopping: boolean; links: Set<() => void> } {
  globalForStopping.__rubricStopping ??= { stopping: false, links: new Set() };
  return globalForStopping.__rubricStopping;
}

/** Whether the studio has begun to stop. */
export function isStopping(): boolean {
  return state().stopping;
}

/** Ends every long-lived answer now and any begun later. */
export function beginStopping(): void {
  const s = state();
  s.stopping = true;
  for (const stop of [...s.links]) stop();
}

/** A request's link to the stop: `signal` (made on first read) and `settle` (ends the link with the answer). */
export interface RequestStopLink {
  /** Aborted when the request ends or the studio begins to stop, whichever is first. */
  readonly signal: AbortSignal;
  /** The answer, with the link ended once it is sent (a streamed body: once it ends or is cancelled). */
  settle(response: Response): Response;
}

/**
 * The stop link of a request whose signal is `requestSignal`. Only long-lived answers read
 * `signal`; for every other request the link is never made and `settle` returns the answer as is.
 */
export function requestStopLink(requestSignal: AbortSignal): RequestStopLink {
  let made: { signal: AbortSignal; release: () => void } | null = null;
  return {
    get signal() {
      made ??= linked(requestSignal);
      return made.signal;
    },
    settle(response) {
      if (!made) return response;
      const { release } = made;
      if (!response.body) {
        release();
        return response;
      }
      return new Response(releasedAtEnd(response.body, release), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
}

function linked(requestSignal: AbortSignal): { signal: AbortSignal; release: () => void } {
  const s = state();
  const controller = new AbortController();
  const stop = () => {
    release();
    controller.abort(new Error("the studio is stopping"));
  };
  const ended = () => {
    release();
    controller.abort(requestSignal.reason);
  };
  function release() {
    s.links.delete(stop);
    requestSignal.removeEventListener("abort", ended);
  }
  if (s.stopping) stop();
  else if (requestSignal.aborted) ended();
  else {
    s.links.add(stop);
    requestSignal.addEventListener("abort", ended, { once: true });
  }
  return { signal: controller.signal, release };
}

/** The same bytes; `release` runs once the body has ended, failed or been cancelled. */
function releasedAtEnd(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        release();
        controller.error(err);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

/**
 * On the process's first SIGTERM or SIGINT: begin stopping, then `onStop`. Next.js's own handler
 * (it closes the server and exits) runs beside it.
 */
export function stopOnSignals(onStop: () => void): void {
  let heard = false;
  const stop = () => {
    if (heard) return;
    heard = true;
    beginStopping();
    onStop();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
