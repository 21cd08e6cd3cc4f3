import "server-only";
import type { Store } from "@/db/client";
import { setCommentThreadResolution } from "@/db/queries/rubric-comments";
import { AppError } from "@/lib/errors";
import { announceLive } from "@/server/live/rubric-feed";
import { requireRubric } from "@/server/rubrics/read-rubric";
import { requireThread } from "./require-thread";

/** Resolves or reopens a thread; everyone on the rubric hears of it. */
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
  await announceLive(store, input.paperId, { type: "comments" });
}
