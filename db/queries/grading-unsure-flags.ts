import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { gradingUnsureFlags, users } from "../schema";

/** Reviewers' "unsure" flags on a grading's leaves (one per reviewer and leaf). */

export interface UnsureFlagRow {
  nodeKey: string;
  userId: string;
  note: string;
  createdAt: Date;
  userName: string | null;
  userEmail: string;
}

const flagColumns = {
  nodeKey: gradingUnsureFlags.nodeKey,
  userId: gradingUnsureFlags.userId,
  note: gradingUnsureFlags.note,
  createdAt: gradingUnsureFlags.createdAt,
  userName: users.name,
  userEmail: users.email,
};

/** The flags of a grading (or of one of its leaves), oldest first, with who raised them. */
export async function listUnsureFlags(db: Executor, gradingId: string, nodeKey?: string): Promise<UnsureFlagRow[]> {
  return db
    .select(flagColumns)
    .from(gradingUnsureFlags)
    .innerJoin(users, eq(users.id, gradingUnsureFlags.userId))
    .where(
      and(eq(gradingUnsureFlags.gradingId, gradingId), nodeKey ? eq(gradingUnsureFlags.nodeKey, nodeKey) : undefined),
    )
    .orderBy(asc(gradingUnsureFlags.createdAt), asc(users.email));
}

/** Flags a leaf for a reviewer; their earlier flag on it takes the new note. */
export async function upsertUnsureFlag(
  tx: Executor,
  input: { gradingId: string; nodeKey: string; userId: string; note: string },
): Promise<void> {
  await tx
    .insert(gradingUnsureFlags)
    .values(input)
    .onConflictDoUpdate({
      target: [gradingUnsureFlags.gradingId, gradingUnsureFlags.nodeKey, gradingUnsureFlags.userId],
      set: { note: input.note },
    });
}

/** Clears one reviewer's flag on a leaf; whether there was one. */
export async function deleteUnsureFlag(
  tx: Executor,
  input: { gradingId: string; nodeKey: string; userId: string },
): Promise<boolean> {
  const removed = await tx
    .delete(gradingUnsureFlags)
    .where(
      and(
        eq(gradingUnsureFlags.gradingId, input.gradingId),
        eq(gradingUnsureFlags.nodeKey, input.nodeKey),
        eq(gradingUnsureFlags.userId, input.userId),
      ),
    )
    .returning({ id: gradingUnsureFlags.id });
  return removed.length > 0;
}
