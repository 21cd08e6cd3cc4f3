import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "../client";

/** PostgreSQL's NOTIFY on `channel` (delivered when the surrounding transaction, if any, commits). */
export async function notifyChannel(db: Executor, channel: string, payload: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${channel}, ${payload})`);
}
