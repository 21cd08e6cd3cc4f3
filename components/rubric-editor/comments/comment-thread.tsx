"use client";

import { CheckCircle2, RotateCcw } from "lucide-react";
import { useState } from "react";
import { mentionLabel, splitMentions } from "@/lib/comments/mentions";
import { CommentComposer } from "./comment-composer";
import { personLabel, type CommentPerson, type CommentsApi, type CommentThread } from "./use-comments";

/** A comment's text with each @mention shown as the person's name (highlighted when it is the reader). */
export function MentionText({
  body,
  people,
  me,
}: {
  body: string;
  people: readonly CommentPerson[];
  me: string | null;
}) {
  return (
    <p className="whitespace-pre-wrap break-words text-sm text-zinc-800">
      {splitMentions(body).map((part, i) => {
        if ("text" in part) return <span key={i}>{part.text}</span>;
        const person = people.find((p) => p.email === part.email);
        const isMe = person?.id === me;
        return (
          <span
            key={i}
            data-testid="mention"
            title={part.email}
            className={`rounded px-0.5 font-medium ${isMe ? "bg-amber-100 text-amber-900" : "bg-indigo-50 text-indigo-800"}`}
          >
            @{person ? mentionLabel(person, people) : part.email}
          </span>
        );
      })}
    </p>
  );
}

/** One thread: its comments, a reply box, resolve or reopen. */
export function CommentThreadCard({ thread, comments }: { thread: CommentThread; comments: CommentsApi }) {
  const { people, me } = comments;
  const onReply = (body: string) => comments.reply(thread.id, body);
  const onResolve = (resolved: boolean) => comments.setResolved(thread.id, resolved);
  const [replying, setReplying] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const resolved = thread.resolvedAt !== null;
  const toggle = () => {
    setProblem(null);
    onResolve(!resolved).catch((err: Error) => setProblem(err.message));
  };
  return (
    <article
      data-testid="comment-thread"
      data-resolved={resolved ? "true" : "false"}
      className={`rounded-md border px-2.5 py-2 ${resolved ? "border-zinc-200 bg-zinc-50 opacity-80" : "border-sky-200 bg-white"}`}
    >
      <ol className="space-y-2">
        {thread.comments.map((c) => (
          <li key={c.id} data-testid="comment">
            <div className="flex items-baseline gap-1.5 text-xs">
              <span className="font-medium text-zinc-900">{personLabel(c.author)}</span>
              <time className="text-zinc-500" dateTime={c.createdAt}>
                {new Date(c.createdAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}
              </time>
            </div>
            <MentionText body={c.body} people={people} me={me} />
          </li>
        ))}
      </ol>
      {resolved && <p className="mt-1.5 text-[11px] text-zinc-500">Resolved by {personLabel(thread.resolvedBy)}</p>}
      {problem && (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {problem}
        </p>
      )}
      <div className="mt-2 flex items-center gap-2">
        {!replying && (
          <button
            type="button"
            className="text-xs font-medium text-indigo-700 hover:underline"
            onClick={() => setReplying(true)}
            data-testid="comment-reply-open"
          >
            Reply
          </button>
        )}
        <button
          type="button"
          onClick={toggle}
          data-testid={resolved ? "comment-reopen" : "comment-resolve"}
          className="ml-auto flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
        >
          {resolved ? <RotateCcw size={12} aria-hidden /> : <CheckCircle2 size={12} aria-hidden />}
          {resolved ? "Reopen" : "Resolve"}
        </button>
      </div>
      {replying && (
        <div className="mt-2">
          <CommentComposer
            people={people}
            placeholder="Reply…"
            submitLabel="Reply"
            autoFocus
            testId="comment-reply"
            onSubmit={async (body) => {
              await onReply(body);
              setReplying(false);
            }}
          />
        </div>
      )}
    </article>
  );
}
