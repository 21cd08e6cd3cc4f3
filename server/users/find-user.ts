import "server-only";
import type { Store } from "@/db/client";
import type { User } from "@/db/schema";
import { getUserByEmail } from "@/db/queries/users";
import { AppError } from "@/lib/errors";

/** The user with this email (the CLI names users by email); 404 when there is none. */
export async function findUserByEmail(store: Store, email: string): Promise<User> {
  const user = await getUserByEmail(store.db, email);
  if (!user) throw new AppError("not_found", `No user with email ${email}`);
  return user;
}
