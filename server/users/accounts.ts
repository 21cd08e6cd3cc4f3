import "server-only";
import type { Executor, Store } from "@/db/client";
import type { User } from "@/db/schema";
import { createUser, ensureUserByEmail, getUserByEmail, setUserPasswordHash } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "@/server/auth/password";

/** A new user; the password (when given) is stored as its hash only. */
export async function createAccount(
  db: Executor,
  input: { email: string; name?: string | null; password?: string; isStaff?: boolean },
): Promise<User> {
  const { password, ...fields } = input;
  return createUser(db, { ...fields, passwordHash: password ? await hashPassword(password) : null });
}

/**
 * Gives an email a password-protected account: a new user, or a member invited by email (a row
 * without a password yet) who gets the password. Refuses (409) an email that has a password.
 */
export async function addPasswordUser(
  store: Store,
  input: { email: string; name?: string; password: string; isStaff: boolean },
): Promise<"added" | "invited"> {
  const existing = await getUserByEmail(store.db, input.email);
  if (existing?.passwordHash) throw new AppError("conflict", `a user with email ${input.email} already exists and has a password`);
  if (existing) {
    await setUserPasswordHash(store.db, existing.id, await hashPassword(input.password), {
      isStaff: input.isStaff || existing.isStaff,
      name: input.name ?? existing.name,
    });
    return "invited";
  }
  await createAccount(store.db, input);
  return "added";
}

// argon2id hash of a random string, used to spend the same time on unknown emails.
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$l9TvX1lZZD5ovOE1Z3YQLA$nVpbnkJAK04nnJNR8vMO/rJMjkyTyB8/VkvoIxMbbjY";

/** The user whose email and password these are, or null. */
export async function verifyCredentials(store: Store, email: string, password: string): Promise<User | null> {
  const user = await getUserByEmail(store.db, email);
  // Verify even without a user so that timing does not tell which emails exist.
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  return user?.passwordHash && ok ? user : null;
}

/** The studio user of an identity provider's account, matched by email (invites are by email), created when new. */
export function userForIdentity(store: Store, email: string, name?: string | null): Promise<User> {
  return ensureUserByEmail(store.db, email, name);
}
