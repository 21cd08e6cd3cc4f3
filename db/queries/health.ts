import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";

/** One round trip: throws while the database does not answer (readiness probes). */
export async function pingDatabase(db: Executor): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
