import "server-only";
import type { Executor, Store } from "@/db/client";
import {
  getCommentThread,
  getLiveNodeId,
  insertComment,
  insertCommentThread,
  listCommentThreads,
  listMentionablePeople,
  setCommentThreadResolution,
  type CommentThreadView,
  type MentionablePerson,
} from "@/db/queries/rubric-comments";
import { findMentionedEmails } from "@/lib/comments/mentions";
import { AppError } from "@/lib/errors";
import { announceLive } from "@/server/live/rubric-feed";
import { requireRubric } from "@/server/rubrics/read-rubric";

/** The rubric's comment threads (open and resolved) and the people who can be @mentioned. */
export async function listComments(store: Store, paperId: string): Promise<{ threads: CommentThreadView[]; people: MentionablePerson[] }> {
  const { id: rubricId } = await requireRubric(store.db, paperId);
  const [threads, people] = await Promise.all([listCommentThreads(store.db, rubricId), listMentionablePeople(store.db, paperId)]);
  return { threads, people };
}

/** Starts a thread on a live node of the rubric with its first comment; everyone on the rubric hears of it. */
export async function startCommentThread(
  store: Store,
  input: { paperId: string; nodeKey: string; body: string; userId: string },
): Promise<{ threadId: string }> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  const mentions = await resolveMentions(store.db, input.paperId, input.body);
  const threadId = await store.db.transaction(async (tx) => {
    const nodeId = await getLiveNodeId(tx, rubricId, input.nodeKey);
    if (nodeId === null) throw new AppError("not_found", `No node with key "${input.nodeKey}" in this rubric (it may have been deleted)`);
    const id = await insertCommentThread(tx, { rubricId, nodeKey: input.nodeKey, nodeId, createdBy: input.userId });
    await insertComment(tx, { threadId: id, authorId: input.userId, body: input.body, mentions });
    return id;
  });
  await announceLive(store.db, store.kind, input.paperId, { type: "comments" });
  return { threadId };
}

/** A reply in a thread; a reply to a resolved thread reopens it (the discussion goes on). */
export async function replyToCommentThread(
  store: Store,
  input: { paperId: string; threadId: string; body: string; userId: string },
): Promise<void> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  const mentions = await resolveMentions(store.db, input.paperId, input.body);
  await store.db.transaction(async (tx) => {
    const thread = await requireThread(tx, rubricId, input.threadId);
    await insertComment(tx, { threadId: thread.id, authorId: input.userId, body: input.body, mentions });
    if (thread.resolvedAt) await setCommentThreadResolution(tx, thread.id, null);
  });
  await announceLive(store.db, store.kind, input.paperId, { type: "comments" });
}

/** Resolves or reopens a thread. */
export async function resolveCommentThread(
  store: Store,
  input: { paperId: string; threadId: string; resolved: boolean; userId: string },
): Promise<void> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  const thread = await requireThread(store.db, rubricId, input.threadId);
  if (!!thread.resolvedAt === input.resolved) {
    throw new AppError("conflict", `The thread is already ${input.resolved ? "resolved" : "open"}`);
  }
  await setCommentThreadResolution(store.db, thread.id, input.resolved ? input.userId : null);
  await announceLive(store.db, store.kind, input.paperId, { type: "comments" });
}

async function requireThread(db: Executor, rubricId: string, threadId: string) {
  const thread = await getCommentThread(db, rubricId, threadId);
  if (!thread) throw new AppError("not_found", `No comment thread "${threadId}" on this rubric`);
  return thread;
}

/** The ids of the people `body` mentions; a mention of someone who is not on the paper is refused. */
async function resolveMentions(db: Executor, paperId: string, body: string): Promise<string[]> {
  const emails = findMentionedEmails(body);
  if (emails.length === 0) return [];
  const people = await listMentionablePeople(db, paperId);
  const byEmail = new Map(people.map((p) => [p.email, p.id]));
  const unknown = emails.filter((e) => !byEmail.has(e));
  if (unknown.length > 0) {
    const list = unknown.map((e) => `@${e}`).join(", ");
    throw new AppError("bad_request", `Only people on this paper can be mentioned: ${list} ${unknown.length === 1 ? "is" : "are"} not`, [
      { path: "body", message: `mentions ${list}, who ${unknown.length === 1 ? "is" : "are"} not on this paper` },
    ]);
  }
  return emails.map((e) => byEmail.get(e)!);
}
