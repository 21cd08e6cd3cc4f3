import "server-only";
import pg from "pg";

/**
 * A process's one LISTEN connection, which comes back by itself. PostgreSQL drops it on a restart,
 * a failover or `pg_terminate_backend`; NOTIFYs sent while it is gone are lost for good, so every
 * reopening after the first is reported (`onOpen` with `reopened`) and the live feed tells every
 * follower to re-read what it shows. Reconnects back off from 100 ms to 5 s, for as long as the
 * connection is not closed.
 */

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

export interface ListenConnectionOptions {
  databaseUrl: string;
  channel: string;
  onNotification(payload: string): void;
  /** After LISTEN holds: the first time, and again (`reopened`) after each loss. */
  onOpen(client: pg.Client, info: { reopened: boolean }): Promise<void> | void;
  /** A loss or a failed attempt, said once each (never with the URL: it may hold a password). */
  onProblem(message: string): void;
}

export interface ListenConnection {
  /** Settles when the first connection holds its LISTEN (rejects if that first attempt fails). */
  readonly ready: Promise<void>;
  /** Whether LISTEN holds now (readiness probes). */
  isUp(): boolean;
  close(): Promise<void>;
}

export function openListenConnection(opts: ListenConnectionOptions): ListenConnection {
  let client: pg.Client | null = null;
  let up = false;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | null = null;
  let lostAt = 0;

  const connect = async (reopened: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString: opts.databaseUrl });
    // Without a listener an error on an idle client is an uncaught exception that ends the process.
    next.on("error", (err) => lose(next, err.message));
    next.on("end", () => lose(next, "the connection ended"));
    next.on("notification", (msg) => {
      if (msg.channel === opts.channel && msg.payload) opts.onNotification(msg.payload);
    });
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${opts.channel}`);
    } catch (err) {
      client = null;
      next.end().catch(() => undefined);
      throw err;
    }
    if (closed || client !== next) return;
    up = true;
    retryMs = FIRST_RETRY_MS;
    if (reopened) opts.onProblem(`the LISTEN connection is back after ${Date.now() - lostAt} ms`);
    await opts.onOpen(next, { reopened });
  };

  const lose = (which: pg.Client, why: string) => {
    if (client !== which) return;
    client = null;
    which.end().catch(() => undefined);
    if (closed) return;
    if (up) {
      lostAt = Date.now();
      opts.onProblem(`the LISTEN connection was lost (${why}); reconnecting`);
    }
    up = false;
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect(true).catch((err: unknown) => {
        // Still down: try again later, waiting longer each time.
        if (closed) return;
        opts.onProblem(`reconnecting failed: ${err instanceof Error ? err.message : err}`);
        retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
        scheduleReconnect();
      });
    }, retryMs);
    retryTimer.unref();
  };

  const ready = connect(false);
  return {
    ready,
    isUp: () => up,
    async close() {
      closed = true;
      up = false;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
