import { StaleLeaseError, StudioError, type StudioClient } from "./studio-client";
import type { ClaimedJob } from "@/lib/runner/protocol";

/** How long one wait-cancel poll waits (under the protocol's 30 s and common proxies' idle limits). */
const WAIT_S = 25;

export interface CancelWatchOptions {
  client: StudioClient;
  claimed: ClaimedJob;
  /** Staff cancelled the job: called once. */
  onCancel(): void;
  /** The lease is gone: the job is someone else's now. */
  onStaleLease(err: StaleLeaseError): void;
  /** The studio does not answer the poll (an older studio): the heartbeat still carries the cancel. */
  onUnavailable(err: Error): void;
  retryMs?: number;
}

/**
 * Holds the job's wait-cancel long poll open from claim to end, so a cancel reaches the runner the
 * moment staff press it rather than at the next heartbeat. Returns the function that stops it.
 */
export function watchForCancel(opts: CancelWatchOptions): () => void {
  const abort = new AbortController();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      abort.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  void (async () => {
    while (!abort.signal.aborted) {
      try {
        if (await opts.client.waitCancel(opts.claimed, WAIT_S, abort.signal)) {
          if (!abort.signal.aborted) opts.onCancel();
          return;
        }
      } catch (err) {
        if (abort.signal.aborted) return;
        if (err instanceof StaleLeaseError) return opts.onStaleLease(err);
        if (err instanceof StudioError && err.status < 500 && err.status !== 429) return opts.onUnavailable(err);
        // The network or a 5xx: poll again shortly.
        await pause(opts.retryMs ?? 1000);
      }
    }
  })();
  return () => abort.abort();
}
