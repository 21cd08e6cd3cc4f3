import "server-only";
import { count, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { users, type User } from "../schema";

/** Who did something, as shown beside it; null when the row's user is gone (or it was the studio). */
export interface UserRef {
  name: string | null;
  email: string;
}

/** A left-joined user's name and email as a UserRef (the join gives nulls when there is none). */
export function toUserRef(name: string | null, email: string | null): UserRef | null {
  return email ? { name, email } : null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function getUserById(db: Executor, id: string): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user ?? null;
}

export async function getUserByEmail(db: Executor, email: string): Promise<User | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return user ?? null;
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row.n;
}

export async function createUser(
  db: Executor,
  input: { email: string; name?: string | null; passwordHash?: string | null; isStaff?: boolean },
): Promise<User> {
  const [user] = await db
    .insert(users)
    .values({
      email: normalizeEmail(input.email),
      name: input.name ?? null,
      passwordHash: input.passwordHash ?? null,
      isStaff: input.isStaff ?? false,
    })
    .returning();
  return user;
}

/** The user with this email, created (without a password) when new: for invites and OAuth sign-in. */
export async function ensureUserByEmail(db: Executor, email: string, name?: string | null): Promise<User> {
  const normalized = normalizeEmail(email);
  await db
    .insert(users)
    .values({ email: normalized, name: name ?? null })
    .onConflictDoNothing({ target: users.email });
  const user = await getUserByEmail(db, normalized);
  if (!user) throw new Error(`User ${normalized} vanished after insert`);
  return user;
}

export async function setUserPasswordHash(
  db: Executor,
  id: string,
  passwordHash: string,
  fields: { isStaff?: boolean; name?: string | null } = {},
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, ...fields })
    .where(eq(users.id, id));
}

/** Disables the user (now) or enables them again; false when there is no such user. */
export async function setUserDisabled(db: Executor, id: string, disabled: boolean): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ disabledAt: disabled ? sql`now()` : null })
    .where(eq(users.id, id))
    .returning({ id: users.id });
  return rows.length > 0;
}
