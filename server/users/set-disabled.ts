import "server-only";
import type { Store } from "@/db/client";
import { setUserDisabled } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { endAllSessions } from "@/server/auth/sessions";

/**
 * Staff disable a user (every session and API token ends at once, open streams included, and sign-in is refused)
 * or enable them again (they sign in afresh). Staff cannot disable themselves: nobody would be left
 * to undo it from the studio (`by` is null from the CLI).
 */
export async function setDisabled(
  store: Store,
  input: { userId: string; disabled: boolean; by: string | null },
): Promise<{ disabled: boolean }> {
  if (input.disabled && input.userId === input.by)
    throw new AppError("conflict", "You cannot disable your own account");
  if (!(await setUserDisabled(store.db, input.userId, input.disabled)))
    throw new AppError("not_found", `No user with id "${input.userId}"`);
  if (input.disabled) await endAllSessions(store, input.userId);
  return { disabled: input.disabled };
}
