import "server-only";
import type { Store } from "@/db/client";
import { getUserWithPaperAccess, type SessionRef } from "@/db/queries/papers";
import { canAccessPaper, effectiveRole, type PaperAccess } from "@/lib/auth/access";

/**
 * Whether the session is still live (not signed out, revoked or expired; its user not disabled)
 * and its user still has this access to the paper: the check apiRoute makes on each request, in
 * the same single query, for what outlives a request (an open live stream).
 */
export async function sessionCanAccessPaper(
  store: Store,
  session: SessionRef,
  paperId: string,
  access: PaperAccess,
): Promise<boolean> {
  const found = await getUserWithPaperAccess(store.db, session, paperId);
  if (!found?.paper) return false;
  return canAccessPaper(effectiveRole(found.user.isStaff, found.membership), access);
}
