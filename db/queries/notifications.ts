import "server-only";
import { aliasedTable, and, desc, eq, gte, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import {
  gradingAssignments,
  notifications,
  paperMembers,
  papers,
  userSessions,
  users,
  type NotificationKind,
} from "../schema";
import type { SessionRef } from "./papers";
import { liveSession } from "./user-sessions";

export interface NewNotification {
  recipientId: string;
  kind: NotificationKind;
  actorId: string | null;
  paperId: string;
  nodeKey?: string | null;
  gradingId?: string | null;
  text: string;
}

export async function insertNotifications(db: Executor, rows: NewNotification[]): Promise<void> {
  if (rows.length > 0) await db.insert(notifications).values(rows);
}

/**
 * The recipient may still see what notification `n` is about: staff see every paper; a member sees
 * their paper, and a grader only the gradings assigned to them (the rules of apiRoute and
 * requireGradingAccess, as SQL over the rows listed). Written over the alias `n`: drizzle leaves
 * columns unqualified in a one-table select, which a correlated subquery would misread.
 */
const visibleToRecipient = sql`(EXISTS (SELECT 1 FROM ${users} r WHERE r.id = n.recipient_id AND r.is_staff)
  OR EXISTS (SELECT 1 FROM ${paperMembers} m WHERE m.paper_id = n.paper_id AND m.user_id = n.recipient_id
    AND (n.grading_id IS NULL OR m.role <> 'grader'
      OR EXISTS (SELECT 1 FROM ${gradingAssignments} a WHERE a.grading_id = n.grading_id AND a.user_id = n.recipient_id))))`;

const n = aliasedTable(notifications, "n");

export interface NotificationRow {
  id: string;
  kind: NotificationKind;
  actorName: string | null;
  actorEmail: string | null;
  paperId: string;
  paperTitle: string;
  nodeKey: string | null;
  gradingId: string | null;
  text: string;
  createdAt: Date;
  readAt: Date | null;
}

/** A user's notifications they may still see, newest first. */
export async function listVisibleNotifications(
  db: Executor,
  userId: string,
  limit: number,
): Promise<NotificationRow[]> {
  return db
    .select({
      id: n.id,
      kind: n.kind,
      actorName: users.name,
      actorEmail: users.email,
      paperId: n.paperId,
      paperTitle: papers.title,
      nodeKey: n.nodeKey,
      gradingId: n.gradingId,
      text: n.text,
      createdAt: n.createdAt,
      readAt: n.readAt,
    })
    .from(n)
    .innerJoin(papers, eq(papers.id, n.paperId))
    .leftJoin(users, eq(users.id, n.actorId))
    .where(and(eq(n.recipientId, userId), visibleToRecipient))
    .orderBy(desc(n.createdAt), desc(n.id))
    .limit(limit);
}

export interface UnreadNotificationState {
  unread: number;
  latest: string | null;
}

/** The unread count and newest id of `recipient`'s visible notifications, as two columns. */
const unreadStateColumns = (recipient: SQL | string) => ({
  unread: sql<number>`(SELECT count(*)::int FROM ${notifications} n WHERE n.recipient_id = ${recipient} AND n.read_at IS NULL AND ${visibleToRecipient})`,
  latest: sql<
    string | null
  >`(SELECT n.id FROM ${notifications} n WHERE n.recipient_id = ${recipient} AND ${visibleToRecipient}
    ORDER BY n.created_at DESC, n.id DESC LIMIT 1)`,
});

/** How many of the user's visible notifications are unread, and the newest one's id. */
export async function getUnreadNotificationState(db: Executor, userId: string): Promise<UnreadNotificationState> {
  const { unread, latest } = unreadStateColumns(userId);
  // count(*)::int and a uuid: a number and a string on both drivers.
  const result = await db.execute<{ unread: number; latest: string | null }>(
    sql`SELECT ${unread} AS unread, ${latest} AS latest`,
  );
  return result.rows[0];
}

/**
 * The same for a session, in one query, or null when the session is no longer live (signed out,
 * revoked, expired, its user disabled): what a user's open notification stream checks every second.
 */
export async function getUnreadNotificationStateForSession(
  db: Executor,
  session: SessionRef,
): Promise<UnreadNotificationState | null> {
  const [row] = await db
    .select(unreadStateColumns(sql`${userSessions.userId}`))
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(liveSession(session))
    .limit(1);
  return row ? { unread: Number(row.unread), latest: row.latest ?? null } : null;
}

/** Marks the user's own notifications read (these ids, or all); answers how many changed. */
export async function markNotificationsRead(
  db: Executor,
  userId: string,
  which: { ids?: string[]; all?: true },
): Promise<number> {
  const changed = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.recipientId, userId),
        isNull(notifications.readAt),
        which.all ? undefined : inArray(notifications.id, which.ids ?? []),
      ),
    )
    .returning({ id: notifications.id });
  return changed.length;
}

/** Whether this notification (kind, actor, grading, recipient) was written after `since`. */
export async function hasNotificationSince(
  db: Executor,
  n: { kind: NotificationKind; actorId: string; gradingId: string; recipientId: string },
  since: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.recipientId, n.recipientId),
        eq(notifications.kind, n.kind),
        eq(notifications.actorId, n.actorId),
        eq(notifications.gradingId, n.gradingId),
        gte(notifications.createdAt, since),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The paper's authors, but `except` (the one who acted): who hears that its rubric went back to draft. */
export async function listPaperAuthorIds(db: Executor, paperId: string, except: string | null): Promise<string[]> {
  const rows = await db
    .select({ userId: paperMembers.userId })
    .from(paperMembers)
    .where(
      and(
        eq(paperMembers.paperId, paperId),
        eq(paperMembers.role, "author"),
        except ? ne(paperMembers.userId, except) : undefined,
      ),
    );
  return rows.map((r) => r.userId);
}
