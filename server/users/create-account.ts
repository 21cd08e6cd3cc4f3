import "server-only";
import type { Executor } from "@/db/client";
import type { User } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { assertNewCredentials } from "@/lib/auth/password-rules";
import { hashPassword } from "@/server/auth/password";

/**
 * A new user; the password (when given) is stored as its hash only. Takes a transaction too (the
 * demo seed). Refuses (400) an email that is not one and a password the rules refuse.
 */
export async function createAccount(
  db: Executor,
  input: { email: string; name?: string | null; password?: string; isStaff?: boolean },
): Promise<User> {
  assertNewCredentials(input);
  const { password, ...fields } = input;
  return createUser(db, { ...fields, passwordHash: password ? await hashPassword(password) : null });
}
