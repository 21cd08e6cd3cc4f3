import "server-only";
import type { Store } from "@/db/client";
import {
  listCommentThreads,
  listMentionablePeople,
  type CommentThreadView,
  type MentionablePerson,
} from "@/db/queries/rubric-comments";
import { requireRubric } from "@/server/rubrics/read-rubric";

/** The rubric's comment threads (open and resolved) and the people who can be @mentioned. */
export async function listComments(
  store: Store,
  paperId: string,
): Promise<{ threads: CommentThreadView[]; people: MentionablePerson[] }> {
  const { id: rubricId } = await requireRubric(store.db, paperId);
  const [threads, people] = await Promise.all([
    listCommentThreads(store.db, rubricId),
    listMentionablePeople(store.db, paperId),
  ]);
  return { threads, people };
}
