import "server-only";
import { aliasedTable, and, asc, eq, isNull, or } from "drizzle-orm";
import type { Executor } from "../client";
import { paperMembers, rubricCommentThreads, rubricComments, rubricNodes, users } from "../schema";
import { toUserRef, type UserRef } from "./users";

export interface CommentView {
  id: string;
  body: string;
  /** Ids of the people the body @mentions. */
  mentions: string[];
  authorId: string | null;
  author: UserRef | null;
  createdAt: Date;
}

export interface CommentThreadView {
  id: string;
  nodeKey: string;
  nodeId: string;
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: UserRef | null;
  comments: CommentView[];
}

/** Someone who can be @mentioned on a paper: its members and the benchmark's staff. */
export interface MentionablePerson {
  id: string;
  name: string | null;
  email: string;
}

export async function listMentionablePeople(db: Executor, paperId: string): Promise<MentionablePerson[]> {
  const rows = await db
    .selectDistinct({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .leftJoin(paperMembers, and(eq(paperMembers.userId, users.id), eq(paperMembers.paperId, paperId)))
    .where(or(eq(users.isStaff, true), eq(paperMembers.paperId, paperId)))
    .orderBy(asc(users.email));
  return rows;
}

/** Every thread of the rubric with its comments, oldest first (open and resolved). */
export async function listCommentThreads(db: Executor, rubricId: string): Promise<CommentThreadView[]> {
  const resolver = aliasedTable(users, "resolver");
  const threads = await db
    .select({
      id: rubricCommentThreads.id,
      nodeKey: rubricCommentThreads.nodeKey,
      nodeId: rubricCommentThreads.nodeId,
      createdAt: rubricCommentThreads.createdAt,
      resolvedAt: rubricCommentThreads.resolvedAt,
      resolverName: resolver.name,
      resolverEmail: resolver.email,
    })
    .from(rubricCommentThreads)
    .leftJoin(resolver, eq(resolver.id, rubricCommentThreads.resolvedBy))
    .where(eq(rubricCommentThreads.rubricId, rubricId))
    .orderBy(asc(rubricCommentThreads.createdAt), asc(rubricCommentThreads.id));
  if (threads.length === 0) return [];
  const comments = await db
    .select({
      id: rubricComments.id,
      threadId: rubricComments.threadId,
      body: rubricComments.body,
      mentions: rubricComments.mentions,
      authorId: rubricComments.authorId,
      name: users.name,
      email: users.email,
      createdAt: rubricComments.createdAt,
    })
    .from(rubricComments)
    .innerJoin(rubricCommentThreads, eq(rubricCommentThreads.id, rubricComments.threadId))
    .leftJoin(users, eq(users.id, rubricComments.authorId))
    .where(eq(rubricCommentThreads.rubricId, rubricId))
    .orderBy(asc(rubricComments.createdAt), asc(rubricComments.id));
  const byThread = new Map<string, CommentView[]>(threads.map((t) => [t.id, []]));
  for (const { threadId, name, email, ...c } of comments)
    byThread.get(threadId)?.push({ ...c, author: toUserRef(name, email) });
  return threads.map(({ resolverName, resolverEmail, ...t }) => ({
    ...t,
    resolvedBy: toUserRef(resolverName, resolverEmail),
    comments: byThread.get(t.id) ?? [],
  }));
}

/** The node's PaperBench id when the node is live in the rubric; null otherwise. */
export async function getLiveNodeId(db: Executor, rubricId: string, nodeKey: string): Promise<string | null> {
  const [node] = await db
    .select({ nodeId: rubricNodes.nodeId })
    .from(rubricNodes)
    .where(and(eq(rubricNodes.key, nodeKey), eq(rubricNodes.rubricId, rubricId), isNull(rubricNodes.deletedRevision)));
  return node?.nodeId ?? null;
}

export async function insertCommentThread(
  tx: Executor,
  input: { rubricId: string; nodeKey: string; nodeId: string; createdBy: string },
): Promise<string> {
  const [thread] = await tx.insert(rubricCommentThreads).values(input).returning({ id: rubricCommentThreads.id });
  return thread.id;
}

export async function insertComment(
  tx: Executor,
  input: { threadId: string; authorId: string; body: string; mentions: string[] },
): Promise<void> {
  await tx.insert(rubricComments).values(input);
}

/** A thread of the rubric; null when the rubric has none with this id. */
export async function getCommentThread(
  db: Executor,
  rubricId: string,
  threadId: string,
): Promise<{ id: string; nodeKey: string; resolvedAt: Date | null } | null> {
  const [thread] = await db
    .select({
      id: rubricCommentThreads.id,
      nodeKey: rubricCommentThreads.nodeKey,
      resolvedAt: rubricCommentThreads.resolvedAt,
    })
    .from(rubricCommentThreads)
    .where(and(eq(rubricCommentThreads.id, threadId), eq(rubricCommentThreads.rubricId, rubricId)));
  return thread ?? null;
}

/** Marks the thread resolved by `resolvedBy` now, or open again when `resolvedBy` is null. */
export async function setCommentThreadResolution(
  db: Executor,
  threadId: string,
  resolvedBy: string | null,
): Promise<void> {
  await db
    .update(rubricCommentThreads)
    .set(resolvedBy ? { resolvedAt: new Date(), resolvedBy } : { resolvedAt: null, resolvedBy: null })
    .where(eq(rubricCommentThreads.id, threadId));
}
