import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { PaperCreateInput, PaperUpdateInput } from "@/lib/papers/schemas";
import type { Executor } from "../client";
import {
  paperMembers,
  papers,
  rubricNodes,
  rubrics,
  userSessions,
  users,
  type Paper,
  type PaperRole,
  type User,
} from "../schema";
import { liveSession } from "./user-sessions";
import { ensureUserByEmail } from "./users";

export async function getPaperById(db: Executor, id: string): Promise<Paper | null> {
  const [paper] = await db.select().from(papers).where(eq(papers.id, id)).limit(1);
  return paper ?? null;
}

export async function getPaperRole(db: Executor, paperId: string, userId: string): Promise<PaperRole | null> {
  const [row] = await db
    .select({ role: paperMembers.role })
    .from(paperMembers)
    .where(and(eq(paperMembers.paperId, paperId), eq(paperMembers.userId, userId)))
    .limit(1);
  return row?.role ?? null;
}

export interface PaperListItem {
  id: string;
  title: string;
  role: PaperRole | null;
  revision: number | null;
  nodeCount: number;
  updatedAt: Date;
  /** Seeded by the demo: the list marks it. */
  isDemo: boolean;
}

/** Papers the user may see: all of them for staff, the ones they belong to otherwise. */
export async function listPapersForUser(db: Executor, user: User): Promise<PaperListItem[]> {
  const nodeCount = sql<number>`(
    SELECT count(*)::int FROM ${rubricNodes}
    WHERE ${rubricNodes.rubricId} = ${rubrics.id} AND ${rubricNodes.deletedRevision} IS NULL
  )`;
  const base = db
    .select({
      id: papers.id,
      title: papers.title,
      role: paperMembers.role,
      revision: rubrics.revision,
      nodeCount,
      updatedAt: papers.updatedAt,
      isDemo: papers.isDemo,
    })
    .from(papers)
    .leftJoin(paperMembers, and(eq(paperMembers.paperId, papers.id), eq(paperMembers.userId, user.id)))
    .leftJoin(rubrics, eq(rubrics.paperId, papers.id));
  const rows = await (user.isStaff ? base : base.where(sql`${paperMembers.userId} IS NOT NULL`)).orderBy(
    asc(papers.id),
  );
  return rows.map((r) => ({ ...r, nodeCount: Number(r.nodeCount ?? 0) }));
}

/** The new paper; null when the id is taken. */
export async function createPaper(
  db: Executor,
  input: PaperCreateInput,
  createdBy: string | null,
): Promise<Paper | null> {
  const [paper] = await db
    .insert(papers)
    .values({ ...input, createdBy })
    .onConflictDoNothing({ target: papers.id })
    .returning();
  return paper ?? null;
}

/** The updated paper; null when there is none with this id. */
export async function updatePaper(db: Executor, id: string, patch: PaperUpdateInput): Promise<Paper | null> {
  const [paper] = await db
    .update(papers)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(papers.id, id))
    .returning();
  return paper ?? null;
}

export interface PaperMemberItem {
  userId: string;
  email: string;
  name: string | null;
  role: PaperRole;
  addedAt: Date;
}

export async function listPaperMembers(db: Executor, paperId: string): Promise<PaperMemberItem[]> {
  return db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: paperMembers.role,
      addedAt: paperMembers.createdAt,
    })
    .from(paperMembers)
    .innerJoin(users, eq(users.id, paperMembers.userId))
    .where(eq(paperMembers.paperId, paperId))
    .orderBy(asc(users.email));
}

/** Adds (or changes the role of) a member by email; an unknown email becomes an invited user. */
export async function addPaperMember(
  db: Executor,
  input: { paperId: string; email: string; role: PaperRole; addedBy: string },
): Promise<PaperMemberItem> {
  const user = await ensureUserByEmail(db, input.email);
  const [member] = await db
    .insert(paperMembers)
    .values({ paperId: input.paperId, userId: user.id, role: input.role, addedBy: input.addedBy })
    .onConflictDoUpdate({ target: [paperMembers.paperId, paperMembers.userId], set: { role: input.role } })
    .returning();
  return { userId: user.id, email: user.email, name: user.name, role: member.role, addedAt: member.createdAt };
}

export async function removePaperMember(db: Executor, paperId: string, userId: string): Promise<boolean> {
  const removed = await db
    .delete(paperMembers)
    .where(and(eq(paperMembers.paperId, paperId), eq(paperMembers.userId, userId)))
    .returning({ userId: paperMembers.userId });
  return removed.length > 0;
}

/** A signed-in session: the user the cookie names and the `user_sessions` row it was issued with. */
export interface SessionRef {
  userId: string;
  sessionId: string;
}

/**
 * The session's user, and (when asked) the paper with the user's membership, in one round trip:
 * every API request needs all three before it may read or write anything. Null unless the session
 * is live: its row exists for this user, is neither revoked nor expired, and the user is not
 * disabled (so sign-out, "sign out everywhere" and disabling take effect on the next request).
 */
export async function getUserWithPaperAccess(
  db: Executor,
  session: SessionRef,
  paperId: string | undefined,
): Promise<{ user: User; paper: Paper | null; membership: PaperRole | null } | null> {
  const live = liveSession(session);
  if (!paperId) {
    const [row] = await db
      .select({ user: users })
      .from(userSessions)
      .innerJoin(users, eq(users.id, userSessions.userId))
      .where(live)
      .limit(1);
    return row ? { user: row.user, paper: null, membership: null } : null;
  }
  const [row] = await db
    .select({ user: users, paper: papers, membership: paperMembers.role })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .leftJoin(papers, eq(papers.id, paperId))
    .leftJoin(paperMembers, and(eq(paperMembers.paperId, paperId), eq(paperMembers.userId, users.id)))
    .where(live)
    .limit(1);
  return row ?? null;
}
