import "server-only";

/**
 * The studio's stop. On SIGTERM or SIGINT, Next.js stops accepting connections and waits for every
 * open request to end before it exits. A live stream (an open editor, an inbox) and a long poll (a
 * runner's claim, which the runner renews on the same connection every 30 s) never end on their
 * own, so a studio told to stop never did: Kubernetes waited out the pod's grace period and killed
 * it, and so did every test harness. Long-lived answers therefore end on `untilStopping(signal)`:
 * a stream closes (the browser's EventSource reconnects, to another instance or to this one once it
 * is back) and a long poll answers at once; answers sent while stopping close their connection.
 *
 * Kept on globalThis: Next.js loads the route handlers and instrumentation in separate bundles.
 */
const globalForStopping = globalThis as unknown as { __rubricStopping?: AbortController };

function stopController(): AbortController {
  globalForStopping.__rubricStopping ??= new AbortController();
  return globalForStopping.__rubricStopping;
}

/** Aborted once the studio begins to stop. */
export function stoppingSignal(): AbortSignal {
  return stopController().signal;
}

/** Whether the studio has begun to stop. */
export function isStopping(): boolean {
  return stopController().signal.aborted;
}

/** Aborted when `signal` is (the request ended) or the studio begins to stop, whichever is first. */
export function untilStopping(signal: AbortSignal): AbortSignal {
  return AbortSignal.any([signal, stoppingSignal()]);
}

/** Ends every long-lived answer; `onStop` (started once) stops what the studio started beside its server. */
export function beginStopping(): void {
  stopController().abort(new Error("the studio is stopping"));
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
