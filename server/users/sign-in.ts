import "server-only";
import type { Store } from "@/db/client";
import type { User } from "@/db/schema";
import { ensureUserByEmail, getUserByEmail } from "@/db/queries/users";
import { verifyPassword } from "@/server/auth/password";

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
