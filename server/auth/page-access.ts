import "server-only";
import { redirect } from "next/navigation";
import type { Paper, User } from "@/db/schema";
import { canAccessPaper, effectiveRole, type EffectiveRole, type PaperAccess } from "@/lib/auth/access";
import { getCurrentAccess, getCurrentUser } from "./session";

export type PaperPageAccess =
  | { ok: true; user: User; paper: Paper; role: Exclude<EffectiveRole, null> }
  | { ok: false; user: User; reason: string };

/** Pages' twin of the API wrapper: sign-in redirect, then the same role check as the API (one query for the session, user, paper and role). */
export async function requirePaperPage(paperId: string, access: PaperAccess, path: string): Promise<PaperPageAccess> {
  const current = await getCurrentAccess(paperId);
  if (!current) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  const { user, paper, membership } = current;
  const role = effectiveRole(user.isStaff, membership);
  if (!role || !canAccessPaper(role, access)) {
    return {
      ok: false,
      user,
      reason: role
        ? `Your role on this paper (${role}) does not allow this page.`
        : "You are not a member of this paper.",
    };
  }
  if (!paper) return { ok: false, user, reason: `There is no paper "${paperId}".` };
  return { ok: true, user, paper, role };
}

export async function requireStaffPage(path: string): Promise<User | null> {
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  return user.isStaff ? user : null;
}
