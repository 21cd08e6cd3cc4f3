import { z } from "zod";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { replyToCommentThread } from "@/server/comments/reply-to-comment-thread";
import { resolveCommentThread } from "@/server/comments/resolve-comment-thread";
import { replySchema, threadStatusSchema } from "@/lib/comments/schemas";
import { AppError } from "@/lib/errors";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { paperId: string; threadId: string };

const threadIdSchema = z.uuid({ error: "is not a comment thread id" });

function parseThreadId(threadId: string): string {
  const parsed = threadIdSchema.safeParse(threadId);
  if (!parsed.success) throw new AppError("not_found", `No comment thread "${threadId}" on this rubric`);
  return parsed.data;
}

/** A reply in the thread (reopening it if it was resolved). */
export const POST = apiRoute<Params>({ paper: "view" }, async ({ req, params, store, paper, user }) => {
  const { body } = await parseJsonBody(req, replySchema);
  await replyToCommentThread(store, {
    paperId: paper.id,
    threadId: parseThreadId(params.threadId),
    body,
    userId: user.id,
  });
  return jsonAnswer({ ok: true }, { status: 201 });
});

/** Resolve or reopen the thread. */
export const PATCH = apiRoute<Params>({ paper: "view" }, async ({ req, params, store, paper, user }) => {
  const { resolved } = await parseJsonBody(req, threadStatusSchema);
  await resolveCommentThread(store, {
    paperId: paper.id,
    threadId: parseThreadId(params.threadId),
    resolved,
    userId: user.id,
  });
  return { ok: true };
});
