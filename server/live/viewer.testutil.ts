import type { Store } from "@/db/client";
import type { SessionRef } from "@/db/queries/papers";
import type { PaperRole } from "@/db/schema";
import { addMember } from "@/server/papers/add-member";
import { createAccount } from "@/server/users/create-account";
import { startSession } from "@/server/auth/sessions";

/**
 * A signed-in session for a stream's viewer: a new user (staff, or a member of `paperId` with
 * `role`) and a live session row, as the sign-in makes.
 */
export async function signedInViewer(
  store: Store,
  opts: { staff: true } | { paperId: string; role: PaperRole; addedBy: string },
): Promise<SessionRef & { email: string }> {
  const email = `viewer-${crypto.randomUUID()}@test.rubric.studio`;
  const user = await createAccount(store.db, { email, isStaff: "staff" in opts });
  if ("paperId" in opts)
    await addMember(store, { paperId: opts.paperId, email, role: opts.role, addedBy: opts.addedBy });
  return { userId: user.id, sessionId: await startSession(store, user.id), email };
}
