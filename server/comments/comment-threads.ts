import "server-only";
import type { Store } from "@/db/client";
import {
  addCommentReply,
  createCommentThread,
  listCommentThreads,
  listMentionablePeople,
  setCommentThreadResolved,
  type CommentThreadView,
  type MentionablePerson,
} from "@/db/queries/rubric-comments";
import { announceLive } from "@/server/live/rubric-feed";
import { requireRubric } from "@/server/rubrics/read-rubric";

/** The rubric's comment threads (open and resolved) and the people who can be @mentioned. */
export async function listComments(store: Store, paperId: string): Promise<{ threads: CommentThreadView[]; people: MentionablePerson[] }> {
  const { id: rubricId } = await requireRubric(store.db, paperId);
  const [threads, people] = await Promise.all([listCommentThreads(store.db, rubricId), listMentionablePeople(store.db, paperId)]);
  return { threads, people };
}

/** Starts a thread on a live node with its first comment; everyone on the rubric hears of it. */
export async function startCommentThread(
  store: Store,
  input: { paperId: string; nodeKey: string; body: string; userId: string },
): Promise<{ threadId: string }> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  const created = await createCommentThread(store.db, { ...input, rubricId });
  await announceLive(store.db, store.kind, input.paperId, { type: "comments" });
  return created;
}

/** A reply in a thread (reopening it if it was resolved). */
export async function replyToCommentThread(
  store: Store,
  input: { paperId: string; threadId: string; body: string; userId: string },
): Promise<void> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  await addCommentReply(store.db, { ...input, rubricId });
  await announceLive(store.db, store.kind, input.paperId, { type: "comments" });
}

/** Resolves or reopens a thread. */
export async function resolveCommentThread(
  store: Store,
  input: { paperId: string; threadId: string; resolved: boolean; userId: string },
): Promise<void> {
  const { id: rubricId } = await requireRubric(store.db, input.paperId);
  await setCommentThreadResolved(store.db, { rubricId, threadId: input.threadId, resolved: input.resolved, userId: input.userId });
  await announceLive(store.db, store.kind, input.paperId, { type: "comments" });
}
