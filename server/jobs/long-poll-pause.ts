import "server-only";

/**
 * One pause of a long poll (a claim waiting for a job, a runner waiting for a cancel): it ends at
 * the first of `ms`, the request's abort, or the wake-up it hands to `onWake` (the feed's
 * announcement). The caller then looks again, so a wake-up lost between two looks costs at most `ms`.
 */
export function longPollPause(
  ms: number,
  signal: AbortSignal | undefined,
  onWake: (wake: (() => void) | null) => void,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    onWake(done);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      onWake(null);
      resolve();
    }
  });
}
