import "server-only";
import type { Executor, Store } from "@/db/client";
import {
  deleteUnsureFlag,
  listUnsureFlags,
  upsertUnsureFlag,
  type UnsureFlagRow,
} from "@/db/queries/grading-unsure-flags";
import { getVerdictState } from "@/db/queries/grading-verdicts";
import { AppError } from "@/lib/errors";
import type { ReviewUnsureFlag } from "@/lib/review/types";
import { hiddenReason, visibleUnsureFlags, type LeafVisibility } from "@/lib/review/visibility";

/**
 * "Unsure" (Label Studio's skip): a reviewer flags a leaf they cannot score yet, with a note for
 * staff, and moves on. The leaf stays unreviewed (no review mark); the flag shows to everyone who
 * sees the leaf's verdict, as a filter and a count on the review page, until the reviewer scores
 * the leaf (`commitReviewScore` clears their flag), or they or staff clear it.
 */

export function toUnsureFlag(r: UnsureFlagRow): ReviewUnsureFlag {
  return {
    userId: r.userId,
    user: { name: r.userName, email: r.userEmail },
    note: r.note,
    createdAt: r.createdAt.toISOString(),
  };
}

/** A leaf's flags as this viewer may see them. */
export async function leafUnsureFlags(
  db: Executor,
  gradingId: string,
  nodeKey: string,
  viewerId: string,
  visibility: LeafVisibility,
): Promise<ReviewUnsureFlag[]> {
  const flags = (await listUnsureFlags(db, gradingId, nodeKey)).map(toUnsureFlag);
  return visibleUnsureFlags(flags, hiddenReason(nodeKey, visibility), viewerId);
}

/** Every flag of a grading by leaf (unfiltered: the payload applies `visibleUnsureFlags` per leaf). */
export async function unsureFlagsByLeaf(db: Executor, gradingId: string): Promise<Map<string, ReviewUnsureFlag[]>> {
  const byLeaf = new Map<string, ReviewUnsureFlag[]>();
  for (const r of await listUnsureFlags(db, gradingId)) {
    const list = byLeaf.get(r.nodeKey);
    if (list) list.push(toUnsureFlag(r));
    else byLeaf.set(r.nodeKey, [toUnsureFlag(r)]);
  }
  return byLeaf;
}

interface FlagTarget {
  gradingId: string;
  nodeKey: string;
  userId: string;
  /** What the user may see of the grading. */
  visibility: LeafVisibility;
}

async function requireFlaggableLeaf(db: Executor, t: FlagTarget): Promise<void> {
  if (hiddenReason(t.nodeKey, t.visibility) === "scope")
    throw new AppError("forbidden", "This leaf is not in the part of the grading assigned to you");
  if (!(await getVerdictState(db, t.gradingId, t.nodeKey))) {
    throw new AppError("bad_request", "nodeKey: is not a graded leaf of this grading", [
      { path: "nodeKey", message: "is not a graded leaf of this grading" },
    ]);
  }
}

/** Flags the leaf as unsure for this reviewer (a second flag replaces their note); answers the leaf's flags. */
export async function flagLeafUnsure(store: Store, t: FlagTarget & { note: string }): Promise<ReviewUnsureFlag[]> {
  return store.db.transaction(async (tx) => {
    await requireFlaggableLeaf(tx, t);
    await upsertUnsureFlag(tx, { gradingId: t.gradingId, nodeKey: t.nodeKey, userId: t.userId, note: t.note });
    return leafUnsureFlags(tx, t.gradingId, t.nodeKey, t.userId, t.visibility);
  });
}

/**
 * Clears a flag: the user's own, or (staff only: `mayClearOthers`) another reviewer's
 * (`flagOf`); answers the leaf's flags. A flag that is not there is a 404.
 */
export async function clearUnsureFlag(
  store: Store,
  t: FlagTarget & { flagOf: string; mayClearOthers: boolean },
): Promise<ReviewUnsureFlag[]> {
  if (t.flagOf !== t.userId && !t.mayClearOthers)
    throw new AppError("forbidden", "Only staff clear another reviewer's unsure flag");
  return store.db.transaction(async (tx) => {
    await requireFlaggableLeaf(tx, t);
    if (!(await deleteUnsureFlag(tx, { gradingId: t.gradingId, nodeKey: t.nodeKey, userId: t.flagOf }))) {
      throw new AppError("not_found", "No such unsure flag on this leaf");
    }
    return leafUnsureFlags(tx, t.gradingId, t.nodeKey, t.userId, t.visibility);
  });
}
