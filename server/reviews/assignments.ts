import "server-only";
import type { Store } from "@/db/client";
import {
  deleteGradingAssignment,
  listAssignmentsByGradingId,
  upsertGradingAssignment,
} from "@/db/queries/grading-reviews";
import type { GradingListItem } from "@/db/queries/gradings";
import { getPaperRole } from "@/db/queries/papers";
import { getUserByEmail, toUserRef, type UserRef } from "@/db/queries/users";
import type { Grading, GradingAssignment } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { ReviewAssignment } from "@/lib/review/types";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { announceNotifications, notifyAssignment } from "@/server/notifications/notify";
import { progressOf, reviewTotals, scopeOf, type AssignmentProgress } from "./progress";

export type { AssignmentProgress };

export interface GradingAssignmentItem extends ReviewAssignment {
  gradingId: string;
  userId: string;
  user: UserRef;
  assignedBy: UserRef | null;
  createdAt: Date;
  progress: AssignmentProgress;
}

/** The graders assigned to a grading, with their progress and time spent. */
export async function listGradingAssignments(
  store: Store,
  grading: Pick<Grading, "id" | "rubricVersionId" | "rubricView">,
): Promise<GradingAssignmentItem[]> {
  const { db } = store;
  const rows = await listAssignmentsByGradingId(db, grading.id);
  if (rows.length === 0) return [];
  const pinned = await getGradingRows(db, grading);
  const totals = await reviewTotals(db, [grading.id]);
  return rows.map((r) => ({
    id: r.id,
    gradingId: r.gradingId,
    userId: r.userId,
    nodeKeys: r.nodeKeys,
    blind: r.blind,
    createdAt: r.createdAt,
    user: { name: r.userName, email: r.userEmail },
    assignedBy: toUserRef(r.assignedByName, r.assignedByEmail),
    progress: progressOf(scopeOf(pinned, r.nodeKeys), totals.get(`${grading.id}/${r.userId}`)),
  }));
}

/**
 * Assigns a grading (or subtrees of it) to a grader of its paper, or to a staff member; assigning
 * someone again replaces their assignment (scope and blindness). 400 with the field at fault.
 */
export async function assignGrading(
  store: Store,
  input: {
    grading: Pick<GradingListItem, "id" | "paperId" | "rubricVersionId" | "rubricView">;
    email: string;
    nodeKeys: string[] | null;
    blind: boolean;
    assignedBy: string;
  },
): Promise<GradingAssignment> {
  const { db } = store;
  const user = await getUserByEmail(db, input.email);
  const role = user ? await getPaperRole(db, input.grading.paperId, user.id) : null;
  if (!user || !(user.isStaff || role === "grader")) {
    throw new AppError("bad_request", `${input.email} is not a grader of this paper: add them as a grader first`, [
      { path: "email", message: "must be a grader of the paper, or staff" },
    ]);
  }
  let nodeKeys: string[] | null = null;
  if (input.nodeKeys && input.nodeKeys.length > 0) {
    const rows = await getGradingRows(db, input.grading);
    const known = new Set(rows.map((r) => r.key));
    const unknown = input.nodeKeys.findIndex((k) => !known.has(k));
    if (unknown >= 0) {
      throw new AppError("bad_request", "A node to assign is not in this grading's rubric", [
        { path: `nodeKeys[${unknown}]`, message: "is not a node of the graded rubric" },
      ]);
    }
    nodeKeys = [...new Set(input.nodeKeys)];
  }
  const { assignment, notified } = await db.transaction(async (tx) => {
    const saved = await upsertGradingAssignment(tx, {
      gradingId: input.grading.id,
      userId: user.id,
      nodeKeys,
      blind: input.blind,
      assignedBy: input.assignedBy,
    });
    const told = await notifyAssignment(tx, {
      actorId: input.assignedBy,
      gradingId: input.grading.id,
      recipientId: user.id,
      nodeKeys,
      blind: input.blind,
    });
    return { assignment: saved, notified: told };
  });
  await announceNotifications(store, notified);
  return assignment;
}

/** Takes an assignment back; the grader's review marks stay. False when the grading has no such assignment. */
export async function removeGradingAssignment(store: Store, gradingId: string, assignmentId: string): Promise<boolean> {
  return deleteGradingAssignment(store.db, gradingId, assignmentId);
}
