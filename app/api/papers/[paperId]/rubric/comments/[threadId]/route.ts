import { z } from "zod";
import type { Executor } from "@/db/client";
import { requireRubricByPaperId } from "@/db/queries/rubrics";
import { addCommentReply, setCommentThreadResolved } from "@/db/queries/rubric-comments";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { replySchema, threadStatusSchema } from "@/lib/comments/schemas";
import { AppError } from "@/lib/errors";
import { announceLive } from "@/server/live/rubric-feed";

type Params = { paperId: string; threadId: string };

const threadIdSchema = z.uuid({ error: "is not a comment thread id" });

async function locate(db: Executor, paperId: string, threadId: string) {
  const parsed = threadIdSchema.safeParse(threadId);
  if (!parsed.success) throw new AppError("not_found", `No comment thread "${threadId}" on this rubric`);
  const rubric = await requireRubricByPaperId(db, paperId);
  return { rubricId: rubric.id, threadId: parsed.data };
}

/** A reply in the thread (reopening it if it was resolved). */
export const POST = apiRoute<Params>({ paper: "view" }, async ({ req, params, db, dbKind, paper, user }) => {
  const { body } = await parseJsonBody(req, replySchema);
  const { rubricId, threadId } = await locate(db, paper.id, params.threadId);
  await addCommentReply(db, { paperId: paper.id, rubricId, threadId, body, userId: user.id });
  await announceLive(db, dbKind, paper.id, { type: "comments" });
  return Response.json({ ok: true }, { status: 201 });
});

/** Resolve or reopen the thread. */
export const PATCH = apiRoute<Params>({ paper: "view" }, async ({ req, params, db, dbKind, paper, user }) => {
  const { resolved } = await parseJsonBody(req, threadStatusSchema);
  const { rubricId, threadId } = await locate(db, paper.id, params.threadId);
  await setCommentThreadResolved(db, { rubricId, threadId, resolved, userId: user.id });
  await announceLive(db, dbKind, paper.id, { type: "comments" });
  return { ok: true };
});
