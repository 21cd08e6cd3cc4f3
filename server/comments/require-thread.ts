import "server-only";
import type { Executor } from "@/db/client";
import { getCommentThread } from "@/db/queries/rubric-comments";
import { AppError } from "@/lib/errors";

/** The rubric's thread, or a 404 naming it. */
export async function requireThread(
  db: Executor,
  rubricId: string,
  threadId: string,
): Promise<{ id: string; nodeKey: string; resolvedAt: Date | null }> {
  const thread = await getCommentThread(db, rubricId, threadId);
  if (!thread) throw new AppError("not_found", `No comment thread "${threadId}" on this rubric`);
  return thread;
}
