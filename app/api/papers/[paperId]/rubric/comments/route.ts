import { parseJsonBody } from "@/server/http/body";
import { apiRoute } from "@/server/http/route";
import { listComments } from "@/server/comments/read-comments";
import { startCommentThread } from "@/server/comments/start-comment-thread";
import { newThreadSchema } from "@/lib/comments/schemas";
import { jsonAnswer } from "@/server/http/json-answer";

type Params = { paperId: string };

/** The rubric's comment threads (open and resolved) and the people who can be @mentioned. */
export const GET = apiRoute<Params>({ paper: "view" }, async ({ store, paper, user }) => {
  const { threads, people } = await listComments(store, paper.id);
  return { threads, people, me: user.id };
});

/** Starts a thread on a node. Every member comments: graders discuss the rubric too. */
export const POST = apiRoute<Params>({ paper: "view" }, async ({ req, store, paper, user }) => {
  const { nodeKey, body } = await parseJsonBody(req, newThreadSchema);
  const created = await startCommentThread(store, { paperId: paper.id, nodeKey, body, userId: user.id });
  return jsonAnswer(created, { status: 201 });
});
