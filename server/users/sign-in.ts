import "server-only";
import type { Store } from "@/db/client";
import type { User } from "@/db/schema";
import { ensureUserByEmail, getUserByEmail } from "@/db/queries/users";
import { verifyPassword } from "@/server/auth/password";
import { attemptSucceeded, claimSignInAttempt } from "@/server/auth/throttle";

// argon2id hash of a random string, used to spend the same time on unknown emails.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$l9TvX1lZZD5ovOE1Z3YQLA$nVpbnkJAK04nnJNR8vMO/rJMjkyTyB8/VkvoIxMbbjY";

/** The user whose email and password these are, or null. */
export async function verifyCredentials(store: Store, email: string, password: string): Promise<User | null> {
  const user = await getUserByEmail(store.db, email);
  // Verify even without a user so that timing does not tell which emails exist.
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  // A disabled user is refused like a wrong password (staff see why in the user's record).
  return user?.passwordHash && ok && !user.disabledAt ? user : null;
}

export type PasswordSignIn =
  | { ok: true; user: User }
  /** A wrong email or password; `retryAfterSeconds` when it (or the attempts before it) started a wait. */
  | { ok: false; retryAfterSeconds: number | null };

/**
 * A sign-in with email and password from a client address, throttled per account and per address
 * (lib/auth/sign-in-throttle.ts): while either is blocked the password is not even checked.
 */
export async function signInWithPassword(
  store: Store,
  input: { email: string; password: string; address: string | null },
): Promise<PasswordSignIn> {
  const claim = await claimSignInAttempt(store, input.email, input.address);
  if (!claim.allowed) return { ok: false, retryAfterSeconds: claim.retryAfterSeconds };
  const user = await verifyCredentials(store, input.email, input.password);
  if (!user) return { ok: false, retryAfterSeconds: claim.retryAfterSecondsIfFailed };
  await attemptSucceeded(store, claim);
  return { ok: true, user };
}

/** The studio user of an identity provider's account, matched by email (invites are by email), created when new. */
export function userForIdentity(store: Store, email: string, name?: string | null): Promise<User> {
  return ensureUserByEmail(store.db, email, name);
}
