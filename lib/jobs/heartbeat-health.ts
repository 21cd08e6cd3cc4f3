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
  /** A heartbeat failed: the line (`message`) and its figures, for a structured log. */
  failure(err: unknown): HeartbeatFailure;
}

export interface HeartbeatFailure {
  message: string;
  jobId: string;
  failuresInARow: number;
  sinceLastSuccessS: number;
  leaseS: number;
  error: string;
}

export function heartbeatHealth(jobId: string, leaseS: number, now: () => number = Date.now): HeartbeatHealth {
  let lastSuccess = now();
  let inARow = 0;
  const failure = (err: unknown): HeartbeatFailure => {
    inARow += 1;
    const since = (now() - lastSuccess) / 1000;
    const error = err instanceof Error ? err.message : String(err);
    return {
      message: `job ${jobId}: heartbeat failed (${inARow} in a row, ${since.toFixed(1)} s since the last success, lease ${leaseS} s): ${error}`,
      jobId,
      failuresInARow: inARow,
      sinceLastSuccessS: Number(since.toFixed(1)),
      leaseS,
      error,
    };
  };
  return {
    succeeded() {
      lastSuccess = now();
      inARow = 0;
    },
    failure,
    failed: (err) => failure(err).message,
  };
}
