"use client";

import { FormError } from "@/components/ui/field";
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { mentionLabel, mentionQueryAt, withMentionEmails } from "@/lib/comments/mentions";
import { buttonClass } from "@/components/ui/button";
import type { CommentPerson } from "./use-comments";

/**
 * A comment box: `@` opens a list of the paper's people (arrows and Enter or Tab pick, Esc
 * closes; the pick shows as `@Name`, sent as the person's email), Ctrl/⌘+Enter sends. What was
 * typed stays when sending fails, with the reason.
 */
export function CommentComposer({
  people,
  onSubmit,
  placeholder,
  submitLabel,
  autoFocus = false,
  testId,
}: {
  people: readonly CommentPerson[];
  onSubmit: (body: string) => Promise<void>;
  placeholder: string;
  submitLabel: string;
  autoFocus?: boolean;
  testId: string;
}) {
  const [value, setValue] = useState("");
  // The mentions inserted by name, to be sent as emails.
  const [picked, setPicked] = useState<{ label: string; email: string }[]>([]);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const [listAbove, setListAbove] = useState(false);

  const mention = mentionQueryAt(value, caret);
  const matches =
    mention && mention.start !== dismissedAt
      ? people
          .filter((p) => p.email.includes(mention.query) || (p.name ?? "").toLowerCase().includes(mention.query))
          .slice(0, 6)
      : [];

  const listOpen = matches.length > 0;
  // The list opens where it is seen whole: below the box, or above it when the window (or the
  // scrolling panel the box is in) ends too soon below.
  useLayoutEffect(() => {
    // Below means under the whole composer (its send button too); above, over the text box.
    const box = frameRef.current;
    const list = listRef.current;
    if (!listOpen || !box || !list) return;
    const rect = box.getBoundingClientRect();
    let bottom = window.innerHeight;
    let top = 0;
    for (let p = box.parentElement; p; p = p.parentElement) {
      if (/(auto|scroll|hidden)/.test(getComputedStyle(p).overflowY)) {
        const r = p.getBoundingClientRect();
        bottom = Math.min(bottom, r.bottom);
        top = Math.max(top, r.top);
      }
    }
    const need = list.offsetHeight + 4;
    setListAbove(bottom - rect.bottom < need && rect.top - top > bottom - rect.bottom);
  }, [listOpen, matches.length]);

  function pick(person: CommentPerson) {
    if (!mention) return;
    const label = mentionLabel(person, people);
    const insert = `@${label} `;
    setPicked((list) => [...list, { label, email: person.email }]);
    const next = value.slice(0, mention.start) + insert + value.slice(caret);
    const at = mention.start + insert.length;
    setValue(next);
    setCaret(at);
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(at, at);
    });
  }

  async function send() {
    const body = value.trim();
    if (!body || sending) return;
    setSending(true);
    setError(null);
    try {
      await onSubmit(withMentionEmails(body, picked));
      setValue("");
      setPicked([]);
      setCaret(0);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSending(false);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    e.stopPropagation(); // the editor's shortcuts must not fire while typing
    if (matches.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setActive((i) => (i + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        pick(matches[Math.min(active, matches.length - 1)]);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setDismissedAt(mention!.start);
        return;
      }
    }
    if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
      e.preventDefault();
      void send();
    }
  }

  return (
    <div ref={frameRef} className="relative space-y-1.5">
      <textarea
        ref={ref}
        data-testid={testId}
        aria-label={placeholder}
        placeholder={placeholder}
        autoFocus={autoFocus}
        rows={2}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
          setError(null);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        className="w-full resize-y rounded-md border border-zinc-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-none"
      />
      {matches.length > 0 && (
        <ul
          ref={listRef}
          role="listbox"
          aria-label="People to mention"
          data-testid="mention-options"
          data-placement={listAbove ? "above" : "below"}
          className={`absolute inset-x-0 z-20 rounded-md border border-zinc-200 bg-white py-1 text-sm shadow-lg ${listAbove ? "bottom-full mb-0.5" : "top-full mt-0.5"}`}
        >
          {matches.map((p, i) => (
            <li key={p.id} role="option" aria-selected={i === active}>
              <button
                type="button"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(p)}
                className={`flex w-full items-baseline gap-2 px-2 py-1 text-left ${i === active ? "bg-indigo-50" : "hover:bg-zinc-50"}`}
              >
                <span className="font-medium text-zinc-900">{p.name ?? p.email.split("@")[0]}</span>
                <span className="truncate text-xs text-zinc-500">{p.email}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormError error={error} />
      <div className="flex items-center justify-between">
        <span className="text-[11px] text-zinc-400">@ to mention · Ctrl+Enter to send</span>
        <button
          type="button"
          className={buttonClass("primary", "px-2 py-1 text-xs")}
          disabled={!value.trim() || sending}
          onClick={() => void send()}
        >
          {sending ? "Sending…" : submitLabel}
        </button>
      </div>
    </div>
  );
}
