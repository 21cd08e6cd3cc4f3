import { requireRubricByPaperId } from "@/db/queries/rubrics";
import { createCommentThread, listCommentThreads, listMentionablePeople } from "@/db/queries/rubric-comments";
import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { newThreadSchema } from "@/lib/comments/schemas";
import { announceLive } from "@/server/live/rubric-feed";

type Params = { paperId: string };

/** The rubric's comment threads (open and resolved) and the people who can be @mentioned. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ db, paper, user }) => {
  const { id: rubricId } = await requireRubricByPaperId(db, paper.id);
  const [threads, people] = await Promise.all([listCommentThreads(db, rubricId), listMentionablePeople(db, paper.id)]);
  return { threads, people, me: user.id };
});

/** Starts a thread on a node. Every member comments: graders discuss the rubric too. */
export const POST = apiRoute<Params>({ paper: "view" }, async ({ req, db, dbKind, paper, user }) => {
  const { nodeKey, body } = await parseJsonBody(req, newThreadSchema);
  const { id: rubricId } = await requireRubricByPaperId(db, paper.id);
  const created = await createCommentThread(db, { paperId: paper.id, rubricId, nodeKey, body, userId: user.id });
  await announceLive(db, dbKind, paper.id, { type: "comments" });
  return Response.json(created, { status: 201 });
});
