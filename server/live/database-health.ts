import "server-only";
import { log } from "@/server/observability/log";
import { getDb } from "@/db/client";
import { pingDatabase } from "@/db/queries/health";
import { liveFeedIsUp } from "./rubric-feed";

/** A probe that waits longer than this for the database calls it down. */
const PROBE_TIMEOUT_MS = 2_000;

export interface DatabaseHealth {
  database: "up" | "down";
  /** This instance's LISTEN connection (PostgreSQL): down while it reconnects; "unused" on PGlite or before any stream. */
  liveFeed: "up" | "down" | "unused";
  /** Why the database is down, in general words: the answer is public (the details go to the log). */
  problem?: string;
}

export async function readDatabaseHealth(): Promise<DatabaseHealth> {
  const feed = liveFeedIsUp();
  const liveFeed = feed === null ? "unused" : feed ? "up" : "down";
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      getDb().then(({ db }) => pingDatabase(db)),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { database: "up", liveFeed };
  } catch (err) {
    log.warn({ err }, "health: the database is down");
    return { database: "down", liveFeed, problem: "The database did not answer" };
  } finally {
    clearTimeout(timer);
  }
}
