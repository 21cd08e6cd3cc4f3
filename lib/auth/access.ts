/** A member's role on one paper (staff is global, not a membership). */
export const PAPER_ROLES = ["author", "grader"] as const;
export type PaperRole = (typeof PAPER_ROLES)[number];

/** What a request needs on a paper. */
export type PaperAccess = "view" | "edit-rubric" | "manage";

/** The role that decides access: global staff, else the membership on that paper, else none. */
export type EffectiveRole = "staff" | PaperRole | null;

const ALLOWED: Record<PaperAccess, readonly EffectiveRole[]> = {
  // Rubrics are confidential: only staff and the paper's own members see them.
  view: ["staff", "author", "grader"],
  // Authors and staff build the rubric; graders see it read-only.
  "edit-rubric": ["staff", "author"],
  // Paper fields and members are the benchmark maintainers' job.
  manage: ["staff"],
};

export function effectiveRole(isStaff: boolean, membership: PaperRole | null): EffectiveRole {
  return isStaff ? "staff" : membership;
}

export function canAccessPaper(role: EffectiveRole, access: PaperAccess): boolean {
  return ALLOWED[access].includes(role);
}

/** Whether this role may change the paper's rubric (authors and staff; graders read it). */
export function canEditRubric(role: EffectiveRole): boolean {
  return canAccessPaper(role, "edit-rubric");
}
