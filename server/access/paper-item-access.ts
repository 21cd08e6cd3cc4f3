import "server-only";
import type { Store } from "@/db/client";
import { getPaperRole } from "@/db/queries/papers";
import type { User } from "@/db/schema";
import { canAccessPaper, effectiveRole, type EffectiveRole } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";

/**
 * The one rule of what belongs to a paper (its submissions, jobs and judge runs): staff and the
 * paper's members see it; anyone else learns nothing of it, not even that it exists (404); acting
 * on it (`manage`) is staff's. Answers the caller's role.
 */
export async function requirePaperItemRole(
  store: Store,
  user: User,
  paperId: string,
  access: "view" | "manage",
  words: { item: string; action: string },
): Promise<Exclude<EffectiveRole, null>> {
  const role = effectiveRole(user.isStaff, user.isStaff ? null : await getPaperRole(store.db, paperId, user.id));
  if (!role || !canAccessPaper(role, "view")) throw new AppError("not_found", `No such ${words.item}`);
  if (access === "manage" && role !== "staff") throw new AppError("forbidden", `Only staff can ${words.action}`);
  return role;
}
