import "server-only";
import type { Store } from "@/db/client";
import { getUserByEmail, setUserPasswordHash } from "@/db/queries/users";
import { assertNewCredentials } from "@/lib/auth/password-rules";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/server/auth/password";
import { createAccount } from "./create-account";

/**
 * Gives an email a password-protected account: a new user, or a member invited by email (a row
 * without a password yet) who gets the password. Refuses (409) an email that has a password, and
 * (400) an email that is not one or a password the rules refuse (lib/auth/password-rules.ts).
 */
export async function addPasswordUser(
  store: Store,
  input: { email: string; name?: string; password: string; isStaff: boolean },
): Promise<"added" | "invited"> {
  assertNewCredentials(input);
  const existing = await getUserByEmail(store.db, input.email);
  if (existing?.passwordHash)
    throw new AppError("conflict", `a user with email ${input.email} already exists and has a password`);
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
