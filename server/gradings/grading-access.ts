import "server-only";
import { z } from "zod";
import type { Store } from "@/db/client";
import { getGradingAssignment } from "@/db/queries/grading-reviews";
import { getGradingItemById, type GradingListItem } from "@/db/queries/gradings";
import { getPaperRole } from "@/db/queries/papers";
import type { GradingAssignment, User } from "@/db/schema";
import { canAccessPaper, effectiveRole, type EffectiveRole } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import type { LeafVisibility } from "@/lib/review/visibility";
import { getGradingRows } from "./pinned-grading";
import { getLeafVisibility } from "./leaf-visibility";

/** `view`: see the grading (it carries rubric text); `review`: override its verdicts (staff, graders). */
export type GradingAccess = "view" | "review";

const REVIEWERS: readonly EffectiveRole[] = ["staff", "grader"];

export interface GradingAccessGrant {
  grading: GradingListItem;
  role: Exclude<EffectiveRole, null>;
  /** The user's assignment on this grading; a grader always has one (staff may). */
  assignment: GradingAssignment | null;
  /**
   * Which verdicts the user may see: everything for staff and authors; for a grader the leaves of
   * the assigned subtrees and, under a blind assignment, only those they have committed a score on.
   */
  visibility(): Promise<LeafVisibility>;
}

/**
 * The grading of a `/api/gradings/<id>` route, once the signed-in user may access it: the same
 * rules as the paper it belongs to (a member of another paper learns nothing of it), and a grader
 * only a grading assigned to them (staff assign gradings, or subtrees of them, to graders).
 */
export async function requireGradingAccess(
  store: Store,
  user: User,
  gradingId: string,
  access: GradingAccess,
): Promise<GradingAccessGrant> {
  const { db } = store;
  if (!z.uuid().safeParse(gradingId).success) throw new AppError("not_found", "No such grading");
  const grading = await getGradingItemById(db, gradingId);
  if (!grading) throw new AppError("not_found", "No such grading");
  const role = effectiveRole(user.isStaff, user.isStaff ? null : await getPaperRole(db, grading.paperId, user.id));
  if (!role || !canAccessPaper(role, "view")) throw new AppError("forbidden", "You are not a member of this paper");
  if (access === "review" && !REVIEWERS.includes(role)) {
    throw new AppError("forbidden", `Your role on this paper (${role}) cannot review gradings`);
  }
  const assignment = role === "author" ? null : await getGradingAssignment(db, grading.id, user.id);
  if (role === "grader" && !assignment) throw new AppError("forbidden", "This grading is not assigned to you");
  let visibility: Promise<LeafVisibility> | null = null;
  return {
    grading,
    role,
    assignment,
    visibility: () =>
      (visibility ??= getLeafVisibility(db, {
        gradingId: grading.id,
        userId: user.id,
        role,
        assignment,
        rows: () => getGradingRows(db, grading),
      })),
  };
}

/** Refuses a user from whom some verdict of the grading is hidden (a whole-grading export, say). */
export async function requireFullVisibility(grant: GradingAccessGrant, what: string): Promise<void> {
  const v = await grant.visibility();
  if (v.scope || v.blind) {
    throw new AppError("forbidden", `Your assignment on this grading hides some verdicts from you: you cannot ${what}`);
  }
}
