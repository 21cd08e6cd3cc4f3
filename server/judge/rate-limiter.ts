import "server-only";

/**
 * Requests and tokens per minute, as a provider's limits count them: two buckets that refill
 * continuously (a minute's allowance per minute, at most a minute's worth held). A request waits
 * until both have room; tokens are charged by the prompt's count before the call and corrected
 * by the answer's usage after it (the bucket may go below zero: later calls wait longer).
 */
export class MinuteRateLimiter {
  private requests: number;
  private tokens: number;
  private last = Date.now();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly requestsPerMinute: number | null,
    private readonly tokensPerMinute: number | null,
  ) {
    this.requests = requestsPerMinute ?? 0;
    this.tokens = tokensPerMinute ?? 0;
  }

  private refill(): void {
    const now = Date.now();
    const minutes = (now - this.last) / 60_000;
    this.last = now;
    if (this.requestsPerMinute !== null)
      this.requests = Math.min(this.requestsPerMinute, this.requests + minutes * this.requestsPerMinute);
    if (this.tokensPerMinute !== null)
      this.tokens = Math.min(this.tokensPerMinute, this.tokens + minutes * this.tokensPerMinute);
  }

  /** Milliseconds until both buckets hold what is asked (a request larger than a minute's tokens waits for a full bucket). */
  private waitMs(tokens: number): number {
    let ms = 0;
    if (this.requestsPerMinute !== null && this.requests < 1)
      ms = Math.max(ms, ((1 - this.requests) / this.requestsPerMinute) * 60_000);
    if (this.tokensPerMinute !== null) {
      const need = Math.min(tokens, this.tokensPerMinute);
      if (this.tokens < need) ms = Math.max(ms, ((need - this.tokens) / this.tokensPerMinute) * 60_000);
    }
    return Math.ceil(ms);
  }

  /** Waits its turn (callers are served in order), then takes one request and `tokens` tokens. */
  acquire(tokens: number, signal?: AbortSignal): Promise<void> {
    if (this.requestsPerMinute === null && this.tokensPerMinute === null) return Promise.resolve();
    const turn = this.queue.then(async () => {
      for (;;) {
        signal?.throwIfAborted();
        this.refill();
        const ms = this.waitMs(tokens);
        if (ms === 0) break;
        await sleep(ms, signal);
      }
      this.requests -= 1;
      this.tokens -= tokens;
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** The answer's real usage replaces the estimate charged by `acquire`. */
  settle(estimated: number, actual: number): void {
    if (this.tokensPerMinute !== null) this.tokens += estimated - actual;
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
