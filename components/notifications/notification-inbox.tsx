"use client";

import { Bell, CheckCheck } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { relativeTime } from "@/components/rubric-editor/panels/panel-ui";
import { notificationHref, notificationSummary, type NotificationItem } from "@/lib/notifications/schemas";
import { useNotificationInbox } from "./use-notification-inbox";

/**
 * The header's inbox: a bell with the unread count (live), and a panel of the newest notifications
 * (who did what, where, when), each a link to the place it is about. Following one marks it read.
 * Keyboard: the bell opens the panel and focuses its first entry; ↑/↓ move between entries, Esc
 * closes and gives the focus back to the bell.
 */
export function NotificationInbox() {
  const [open, setOpen] = useState(false);
  const { unread, list, markRead, marking, markError } = useNotificationInbox(open);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const panelId = useId();

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);

  // A press outside closes it.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open, close]);

  // Opened: the focus goes to the first entry once the list is there (else to the panel).
  const loaded = list.data !== undefined;
  useEffect(() => {
    if (!open || !loaded) return;
    const first = panelRef.current?.querySelector<HTMLElement>("[data-inbox-entry]");
    (first ?? panelRef.current)?.focus();
  }, [open, loaded]);

  const onPanelKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      close(true);
      return;
    }
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const entries = [...(panelRef.current?.querySelectorAll<HTMLElement>("[data-inbox-entry]") ?? [])];
    if (entries.length === 0) return;
    e.preventDefault();
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const next = e.key === "ArrowDown" ? (at + 1) % entries.length : (at <= 0 ? entries.length : at) - 1;
    entries[next].focus();
  };

  const label = unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`;
  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        data-testid="inbox-button"
        aria-label={label}
        title={label}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        className="relative inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        <Bell className="h-4.5 w-4.5" aria-hidden />
        {unread > 0 && (
          <span
            data-testid="inbox-unread"
            className="absolute -top-1 -right-1 min-w-4.5 rounded-full bg-red-600 px-1 text-center text-[11px] leading-4.5 font-semibold text-white tabular-nums"
          >
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          role="region"
          aria-label="Notifications"
          data-testid="inbox-panel"
          tabIndex={-1}
          onKeyDown={onPanelKey}
          className="absolute top-full right-0 z-40 mt-2 flex max-h-[min(32rem,calc(100vh-5rem))] w-[26rem] max-w-[calc(100vw-2rem)] flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xl outline-none"
        >
          <div className="flex items-center justify-between gap-3 border-b border-zinc-100 px-4 py-2.5">
            <h2 className="text-sm font-semibold text-zinc-900">Notifications</h2>
            <button
              type="button"
              data-testid="inbox-mark-all"
              disabled={unread === 0 || marking}
              onClick={() => markRead({ all: true })}
              className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-50 disabled:cursor-default disabled:text-zinc-400 disabled:hover:bg-transparent focus-visible:outline-2 focus-visible:outline-indigo-500"
            >
              <CheckCheck className="h-3.5 w-3.5" aria-hidden />
              Mark all read
            </button>
          </div>
          {markError && (
            <p className="border-b border-red-100 bg-red-50 px-4 py-1.5 text-xs text-red-700">{markError.message}</p>
          )}
          <div className="min-h-0 flex-1 overflow-y-auto">
            {list.isPending && <p className="px-4 py-6 text-center text-sm text-zinc-500">Loading…</p>}
            {list.isError && <p className="px-4 py-6 text-center text-sm text-red-700">{list.error.message}</p>}
            {list.data?.items.length === 0 && (
              <div data-testid="inbox-empty" className="px-6 py-8 text-center text-sm text-zinc-500">
                <p className="font-medium text-zinc-700">You are all caught up</p>
                <p className="mt-1">
                  You hear here when someone mentions you, assigns you a review, returns your rubric to draft, or
                  finishes a review you assigned.
                </p>
              </div>
            )}
            {list.data && list.data.items.length > 0 && (
              <ul className="divide-y divide-zinc-100">
                {list.data.items.map((n) => (
                  <InboxEntry
                    key={n.id}
                    n={n}
                    onFollow={() => {
                      if (!n.readAt) markRead({ ids: [n.id] });
                      close(false);
                    }}
                    onMarkRead={() => markRead({ ids: [n.id] })}
                  />
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function InboxEntry({ n, onFollow, onMarkRead }: { n: NotificationItem; onFollow(): void; onMarkRead(): void }) {
  const unread = n.readAt === null;
  return (
    <li
      data-testid="inbox-item"
      data-unread={unread}
      className={`group relative flex gap-2 px-4 py-2.5 ${unread ? "bg-indigo-50/50" : ""}`}
    >
      <span
        aria-hidden
        className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${unread ? "bg-indigo-600" : "bg-transparent"}`}
      />
      <Link
        href={notificationHref(n)}
        data-inbox-entry
        onClick={onFollow}
        className="min-w-0 flex-1 rounded outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        <span className={`block text-sm ${unread ? "font-medium text-zinc-900" : "text-zinc-700"}`}>
          {notificationSummary(n)}
          {unread && <span className="sr-only"> (unread)</span>}
        </span>
        {n.text && <span className="mt-0.5 line-clamp-2 block text-xs break-words text-zinc-600">{n.text}</span>}
        <time
          dateTime={n.createdAt}
          title={new Date(n.createdAt).toLocaleString()}
          className="mt-0.5 block text-xs text-zinc-400"
        >
          {relativeTime(n.createdAt)}
        </time>
      </Link>
      {unread && (
        <button
          type="button"
          onClick={onMarkRead}
          aria-label={`Mark read: ${notificationSummary(n)}`}
          title="Mark read"
          className="h-6 shrink-0 self-start rounded px-1.5 text-xs text-zinc-500 hover:bg-white hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          Mark read
        </button>
      )}
    </li>
  );
}
