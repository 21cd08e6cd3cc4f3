"use client";

import { useState } from "react";
import { mentionsUser } from "@/lib/comments/threads";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import { CommentThreadCard } from "./comment-thread";
import type { CommentsApi } from "./use-comments";

type Show = "open" | "mentions" | "resolved";

/** Every thread of the rubric: open ones (the default), those that mention me, resolved ones. */
export function CommentsPanel({
  comments,
  index,
  onSelect,
}: {
  comments: CommentsApi;
  index: TreeIndex;
  onSelect: (key: string) => void;
}) {
  const [show, setShow] = useState<Show>("open");
  const open = comments.threads.filter((t) => !t.resolvedAt);
  const lists: Record<Show, typeof open> = {
    open,
    mentions: comments.me ? comments.threads.filter((t) => mentionsUser(t, comments.me!)) : [],
    resolved: comments.threads.filter((t) => t.resolvedAt),
  };
  const shown = [...lists[show]].reverse(); // newest first
  if (comments.loading) return <p className="text-sm text-zinc-500">Loading comments…</p>;
  if (comments.error) return <p className="text-sm text-red-700">{comments.error}</p>;
  return (
    <div className="space-y-3" data-testid="comments-panel">
      <div className="flex gap-1" role="group" aria-label="Which threads">
        {(
          [
            ["open", "Open"],
            ["mentions", "Mentions me"],
            ["resolved", "Resolved"],
          ] as [Show, string][]
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            aria-pressed={show === id}
            data-testid={`comments-show-${id}`}
            onClick={() => setShow(id)}
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${show === id ? "bg-indigo-600 text-white" : "bg-zinc-100 text-zinc-700 hover:bg-zinc-200"}`}
          >
            {label} <span className="tabular-nums opacity-80">{lists[id].length}</span>
          </button>
        ))}
      </div>
      {shown.length === 0 && (
        <p className="text-sm text-zinc-500" data-testid="comments-empty">
          {show === "open"
            ? "No open threads. Select a node and write in its Comments section to start one."
            : show === "mentions"
              ? "Nobody has mentioned you yet."
              : "No resolved threads yet."}
        </p>
      )}
      <ul className="space-y-3">
        {shown.map((t) => {
          const row = index.byKey.get(t.nodeKey);
          return (
            <li key={t.id} className="space-y-1">
              {row ? (
                <button
                  type="button"
                  onClick={() => onSelect(row.key)}
                  className="block w-full truncate text-left text-xs font-medium text-indigo-700 hover:underline"
                  title={row.requirements}
                >
                  {row.requirements.trim() || "(empty requirement)"}
                </button>
              ) : (
                <p className="text-xs text-zinc-500">On a node that is no longer in the rubric (id {t.nodeId})</p>
              )}
              <CommentThreadCard thread={t} comments={comments} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
