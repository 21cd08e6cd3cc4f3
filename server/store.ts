import "server-only";
import { getDb, type Store } from "@/db/client";

/**
 * The process's database for pages and the CLI, which call services with it (routes get it from
 * `apiRoute`'s context). Opening it migrates it on first use.
 */
export async function getStore(): Promise<Store> {
  const { db, kind } = await getDb();
  return { db, kind };
}
