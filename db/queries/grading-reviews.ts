import "server-only";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import {
  agents,
  gradingAssignments,
  gradingReviews,
  gradingVerdicts,
  gradings,
  papers,
  submissions,
  users,
  type GradingAssignment,
  type GradingKind,
  type GradingReview,
  type SubmissionVariant,
} from "../schema";

/** Review marks (a grader's committed score on a leaf) and assignments (who reviews what). */

// ── Assignments ──────────────────────────────────────────────────────────────

export async function getGradingAssignment(
  db: Executor,
  gradingId: string,
  userId: string,
): Promise<GradingAssignment | null> {
  const [row] = await db
    .select()
    .from(gradingAssignments)
    .where(and(eq(gradingAssignments.gradingId, gradingId), eq(gradingAssignments.userId, userId)))
    .limit(1);
  return row ?? null;
}

export interface AssignmentRow {
  id: string;
  gradingId: string;
  userId: string;
  nodeKeys: string[] | null;
  blind: boolean;
  createdAt: Date;
  userName: string | null;
  userEmail: string;
  assignedByEmail: string | null;
  assignedByName: string | null;
}

/** The assignments of a grading with the grader and who assigned them, by the grader's email. */
export async function listAssignmentsByGradingId(db: Executor, gradingId: string): Promise<AssignmentRow[]> {
  const assignedBy = sql<string | null>`(SELECT email FROM ${users} u WHERE u.id = ${gradingAssignments.assignedBy})`;
  const assignedByName = sql<
    string | null
  >`(SELECT name FROM ${users} u WHERE u.id = ${gradingAssignments.assignedBy})`;
  return db
    .select({
      id: gradingAssignments.id,
      gradingId: gradingAssignments.gradingId,
      userId: gradingAssignments.userId,
      nodeKeys: gradingAssignments.nodeKeys,
      blind: gradingAssignments.blind,
      createdAt: gradingAssignments.createdAt,
      userName: users.name,
      userEmail: users.email,
      assignedByEmail: assignedBy,
      assignedByName,
    })
    .from(gradingAssignments)
    .innerJoin(users, eq(users.id, gradingAssignments.userId))
    .where(eq(gradingAssignments.gradingId, gradingId))
    .orderBy(asc(users.email));
}

/** Assigns a grading to a user; an existing assignment of theirs gets the new scope and blindness. */
export async function upsertGradingAssignment(
  db: Executor,
  input: { gradingId: string; userId: string; nodeKeys: string[] | null; blind: boolean; assignedBy: string },
): Promise<GradingAssignment> {
  const [row] = await db
    .insert(gradingAssignments)
    .values(input)
    .onConflictDoUpdate({
      target: [gradingAssignments.gradingId, gradingAssignments.userId],
      set: { nodeKeys: input.nodeKeys, blind: input.blind, assignedBy: input.assignedBy, updatedAt: sql`now()` },
    })
    .returning();
  return row;
}

export async function deleteGradingAssignment(db: Executor, gradingId: string, assignmentId: string): Promise<boolean> {
  const removed = await db
    .delete(gradingAssignments)
    .where(and(eq(gradingAssignments.gradingId, gradingId), eq(gradingAssignments.id, assignmentId)))
    .returning({ id: gradingAssignments.id });
  return removed.length > 0;
}

export interface QueueRow {
  assignmentId: string;
  gradingId: string;
  rubricVersionId: string;
  rubricView: SubmissionVariant;
  paperId: string;
  paperTitle: string;
  agentName: string;
  runIndex: number;
  variant: SubmissionVariant;
  kind: GradingKind;
  nodeKeys: string[] | null;
  blind: boolean;
  userId: string;
  userName: string | null;
  userEmail: string;
  assignedAt: Date;
}

/** Assignments with their grading's run: one user's (`userId`), or everyone's; by paper, agent, run, grader. */
export async function listQueueRows(db: Executor, opts: { userId?: string } = {}): Promise<QueueRow[]> {
  return db
    .select({
      assignmentId: gradingAssignments.id,
      gradingId: gradings.id,
      rubricVersionId: gradings.rubricVersionId,
      rubricView: gradings.rubricView,
      paperId: submissions.paperId,
      paperTitle: papers.title,
      agentName: agents.name,
      runIndex: submissions.runIndex,
      variant: submissions.variant,
      kind: gradings.kind,
      nodeKeys: gradingAssignments.nodeKeys,
      blind: gradingAssignments.blind,
      userId: gradingAssignments.userId,
      userName: users.name,
      userEmail: users.email,
      assignedAt: gradingAssignments.createdAt,
    })
    .from(gradingAssignments)
    .innerJoin(gradings, eq(gradings.id, gradingAssignments.gradingId))
    .innerJoin(submissions, eq(submissions.id, gradings.submissionId))
    .innerJoin(papers, eq(papers.id, submissions.paperId))
    .innerJoin(agents, eq(agents.id, submissions.agentId))
    .innerJoin(users, eq(users.id, gradingAssignments.userId))
    .where(opts.userId ? eq(gradingAssignments.userId, opts.userId) : undefined)
    .orderBy(asc(submissions.paperId), asc(agents.name), asc(submissions.runIndex), asc(users.email));
}

// ── Review marks ─────────────────────────────────────────────────────────────

/** The leaves a user has committed a score on in a grading. */
export async function listCommittedLeafKeys(db: Executor, gradingId: string, userId: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ nodeKey: gradingReviews.nodeKey })
    .from(gradingReviews)
    .where(and(eq(gradingReviews.gradingId, gradingId), eq(gradingReviews.userId, userId)));
  return new Set(rows.map((r) => r.nodeKey));
}

/** Per grading, grader and leaf: time spent (summed) and the last commit. */
export async function listReviewTotals(
  db: Executor,
  gradingIds: readonly string[],
  userIds?: readonly string[],
): Promise<{ gradingId: string; userId: string | null; nodeKey: string; ms: number; at: Date }[]> {
  if (gradingIds.length === 0) return [];
  const rows = await db
    .select({
      gradingId: gradingReviews.gradingId,
      userId: gradingReviews.userId,
      nodeKey: gradingReviews.nodeKey,
      ms: sql<number>`sum(${gradingReviews.timeSpentMs})::float8`,
      at: sql<Date>`max(${gradingReviews.createdAt})`,
    })
    .from(gradingReviews)
    .where(
      and(
        inArray(gradingReviews.gradingId, [...gradingIds]),
        userIds ? inArray(gradingReviews.userId, [...userIds]) : undefined,
      ),
    )
    .groupBy(gradingReviews.gradingId, gradingReviews.userId, gradingReviews.nodeKey);
  return rows.map((r) => ({ ...r, ms: Number(r.ms), at: new Date(r.at) }));
}

/** Per leaf: how many review marks it has, and the latest score this user committed on it. */
export async function listLeafReviewCounts(
  db: Executor,
  gradingId: string,
  userId: string,
): Promise<Map<string, { n: number; mine: number | null }>> {
  // int and float8 columns: numbers on both drivers.
  const reviews = await db.execute<{ node_key: string; n: number; mine: number | null }>(sql`
    SELECT node_key, count(*)::int AS n,
      (array_agg(score ORDER BY seq DESC) FILTER (WHERE user_id = ${userId}))[1] AS mine
    FROM ${gradingReviews} WHERE grading_id = ${gradingId}
    GROUP BY node_key
  `);
  const out = new Map<string, { n: number; mine: number | null }>();
  for (const r of reviews.rows) out.set(r.node_key, { n: r.n, mine: r.mine });
  return out;
}

/** How many review marks one leaf has. */
export async function countLeafReviews(db: Executor, gradingId: string, nodeKey: string): Promise<number | null> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(gradingReviews)
    .where(and(eq(gradingReviews.gradingId, gradingId), eq(gradingReviews.nodeKey, nodeKey)));
  return row ? Number(row.n) : null;
}

export async function insertReviewMark(
  tx: Executor,
  values: {
    gradingId: string;
    nodeKey: string;
    userId: string;
    score: number;
    overrideId: string | null;
    blind: boolean;
    timeSpentMs: number;
  },
): Promise<GradingReview> {
  const [mark] = await tx.insert(gradingReviews).values(values).returning();
  return mark;
}

export interface LeafReviewRow {
  id: string;
  score: number;
  overrideId: string | null;
  blind: boolean;
  timeSpentMs: number;
  createdAt: Date;
  userName: string | null;
  userEmail: string | null;
}

/** The review marks of one leaf, oldest first, with who made them. */
export async function listLeafReviews(db: Executor, gradingId: string, nodeKey: string): Promise<LeafReviewRow[]> {
  return db
    .select({
      id: gradingReviews.id,
      score: gradingReviews.score,
      overrideId: gradingReviews.overrideId,
      blind: gradingReviews.blind,
      timeSpentMs: gradingReviews.timeSpentMs,
      createdAt: gradingReviews.createdAt,
      userName: users.name,
      userEmail: users.email,
    })
    .from(gradingReviews)
    .leftJoin(users, eq(users.id, gradingReviews.userId))
    .where(and(eq(gradingReviews.gradingId, gradingId), eq(gradingReviews.nodeKey, nodeKey)))
    .orderBy(asc(gradingReviews.seq));
}

/**
 * Sets the grading's `reviewed_at` when it has none and every verdict has a review mark; answers
 * `reviewed_at` as it is afterwards.
 */
export async function markGradingReviewedWhenComplete(tx: Executor, gradingId: string): Promise<Date | null> {
  const [done] = await tx
    .update(gradings)
    .set({ reviewedAt: sql`now()` })
    .where(
      and(
        eq(gradings.id, gradingId),
        isNull(gradings.reviewedAt),
        sql`NOT EXISTS (
          SELECT 1 FROM ${gradingVerdicts} v WHERE v.grading_id = ${gradingId}
          AND NOT EXISTS (SELECT 1 FROM ${gradingReviews} r WHERE r.grading_id = v.grading_id AND r.node_key = v.node_key))`,
      ),
    )
    .returning({ reviewedAt: gradings.reviewedAt });
  const [after] = done
    ? [done]
    : await tx.select({ reviewedAt: gradings.reviewedAt }).from(gradings).where(eq(gradings.id, gradingId));
  return after?.reviewedAt ?? null;
}

/** Each reviewer's latest committed score on each leaf of a grading, with who they are (by email). */
export async function listLatestScoresByReviewer(
  db: Executor,
  gradingId: string,
): Promise<{ nodeKey: string; userId: string; score: number; userName: string | null; userEmail: string }[]> {
  const rows = await db
    .selectDistinctOn([gradingReviews.nodeKey, gradingReviews.userId], {
      nodeKey: gradingReviews.nodeKey,
      // The joined user's id: the same as the review's, and never null (a review whose user is gone has no row here).
      userId: users.id,
      score: gradingReviews.score,
      userName: users.name,
      userEmail: users.email,
    })
    .from(gradingReviews)
    .innerJoin(users, eq(users.id, gradingReviews.userId))
    .where(eq(gradingReviews.gradingId, gradingId))
    .orderBy(gradingReviews.nodeKey, gradingReviews.userId, desc(gradingReviews.seq));
  return rows.sort((a, b) => a.userEmail.localeCompare(b.userEmail));
}
