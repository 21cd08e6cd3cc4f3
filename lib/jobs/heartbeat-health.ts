/**
 * A job's heartbeats as an operator reads them: each failure is said with how many failed in a row
 * and how long since the last one the studio accepted, against the lease it must beat (as
 * buildkite-agent logs its failed pings). A failure that is retried silently hides a lease about to
 * expire; this line says how close it is. Pure: the clock is passed in.
 */
export interface HeartbeatHealth {
  /** The studio accepted a heartbeat. */
  succeeded(): void;
  /** A heartbeat failed: the line to log. */
  failed(err: unknown): string;
}

export function heartbeatHealth(jobId: string, leaseS: number, now: () => number = Date.now): HeartbeatHealth {
  let lastSuccess = now();
  let inARow = 0;
  return {
    succeeded() {
      lastSuccess = now();
      inARow = 0;
    },
    failed(err) {
      inARow += 1;
      const since = ((now() - lastSuccess) / 1000).toFixed(1);
      const why = err instanceof Error ? err.message : String(err);
      return `job ${jobId}: heartbeat failed (${inARow} in a row, ${since} s since the last success, lease ${leaseS} s): ${why}`;
    },
  };
}
