import "server-only";
import type { Store } from "@/db/client";
import { hasDemoRows, listActiveDemoUsers } from "@/db/queries/demo";
import { verifyPassword } from "@/server/auth/password";
import { DEMO_USERS } from "@/server/seed/seed";

/** Whether the studio still holds demo data: every page says so while it does (the root layout). */
export function holdsDemoData(store: Store): Promise<boolean> {
  return hasDemoRows(store.db);
}

export type DemoAccount = (typeof DEMO_USERS)[number];

/**
 * The demo accounts the sign-in page may list: only in the embedded mode (the demo is never seeded
 * on PostgreSQL, and a production server must never print passwords), and only those that still
 * exist, can sign in and still have the seeded password (a demo user may have changed it).
 */
export async function listDemoSignIns(store: Store): Promise<DemoAccount[]> {
  if (store.kind !== "pglite") return [];
  const active = new Map((await listActiveDemoUsers(store.db)).map((u) => [u.email, u.passwordHash]));
  const checked = await Promise.all(
    DEMO_USERS.map(async (account) => {
      const hash = active.get(account.email);
      return hash && (await hasSeededPassword(hash, account.password)) ? account : null;
    }),
  );
  return checked.filter((a): a is DemoAccount => a !== null);
}

// A hash is checked once per process: argon2 costs tens of milliseconds, and the sign-in page asks on
// every view. A changed password is a new hash, so the cache cannot answer for it.
const seededPasswordChecks = new Map<string, Promise<boolean>>();

function hasSeededPassword(hash: string, password: string): Promise<boolean> {
  const key = `${hash}\n${password}`;
  let check = seededPasswordChecks.get(key);
  if (!check) seededPasswordChecks.set(key, (check = verifyPassword(hash, password)));
  return check;
}
