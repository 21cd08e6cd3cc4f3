import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { rubricReviewEvents, rubrics, users, type RubricStatus } from "../schema";
import { toUserRef, type UserRef } from "./users";

export interface RubricReview {
  status: RubricStatus;
  revision: number;
  history: {
    status: RubricStatus;
    revision: number;
    reason: string | null;
    versionId: string | null;
    createdAt: Date;
    user: UserRef | null;
  }[];
}

export async function getRubricReview(db: Executor, rubricId: string): Promise<RubricReview> {
  const [rubric] = await db
    .select({ status: rubrics.status, revision: rubrics.revision })
    .from(rubrics)
    .where(eq(rubrics.id, rubricId));
  const events = await db
    .select({
      status: rubricReviewEvents.status,
      revision: rubricReviewEvents.revision,
      reason: rubricReviewEvents.reason,
      versionId: rubricReviewEvents.versionId,
      createdAt: rubricReviewEvents.createdAt,
      name: users.name,
      email: users.email,
    })
    .from(rubricReviewEvents)
    .leftJoin(users, eq(users.id, rubricReviewEvents.userId))
    .where(eq(rubricReviewEvents.rubricId, rubricId))
    .orderBy(desc(rubricReviewEvents.createdAt));
  return {
    ...rubric,
    history: events.map(({ name, email, ...e }) => ({ ...e, user: toUserRef(name, email) })),
  };
}

/** Sets the rubric's status and records the change in its review history. */
export async function setRubricStatus(
  tx: Executor,
  input: {
    rubricId: string;
    revision: number;
    status: RubricStatus;
    userId?: string | null;
    versionId?: string | null;
    reason?: string;
  },
): Promise<void> {
  await tx.update(rubrics).set({ status: input.status }).where(eq(rubrics.id, input.rubricId));
  await tx.insert(rubricReviewEvents).values({
    rubricId: input.rubricId,
    revision: input.revision,
    status: input.status,
    userId: input.userId ?? null,
    versionId: input.versionId ?? null,
    reason: input.reason ?? null,
  });
}
