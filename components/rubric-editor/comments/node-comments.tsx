"use client";

import { MessageSquare } from "lucide-react";
import { CommentComposer } from "./comment-composer";
import { CommentThreadCard } from "./comment-thread";
import type { CommentsApi } from "./use-comments";

/** The selected node's threads (open first) and a box to start a new one. */
export function NodeComments({ nodeKey, comments }: { nodeKey: string; comments: CommentsApi }) {
  const threads = comments.threads
    .filter((t) => t.nodeKey === nodeKey)
    .sort((a, b) => Number(a.resolvedAt !== null) - Number(b.resolvedAt !== null));
  return (
    <section
      className="mt-4 space-y-2 border-t border-zinc-200 pt-3"
      aria-label="Comments on this node"
      data-testid="node-comments"
    >
      <h3 className="flex items-center gap-1.5 text-xs font-medium text-zinc-700">
        <MessageSquare size={13} aria-hidden /> Comments
      </h3>
      {comments.error && <p className="text-xs text-red-700">{comments.error}</p>}
      {threads.map((t) => (
        <CommentThreadCard key={t.id} thread={t} comments={comments} />
      ))}
      <CommentComposer
        people={comments.people}
        placeholder={threads.length ? "Start another thread…" : "Comment on this node…"}
        submitLabel="Comment"
        testId="comment-new"
        onSubmit={(body) => comments.startThread(nodeKey, body)}
      />
    </section>
  );
}
