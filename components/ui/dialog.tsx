"use client";

import { X } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * A modal dialog: a dimmed overlay (a press on it closes), a panel with a title, an optional
 * icon and description, and a Close button. Esc (and any of `closeKeys`) pressed inside closes it.
 * Mount it only while it is open: on mount the focus moves to the Close button (or, with
 * `focusClose={false}`, stays with a child's `autoFocus`), and on unmount it goes back to the
 * element that had it.
 */
export function Dialog({
  onClose,
  title,
  label = typeof title === "string" ? title : undefined,
  testId,
  icon,
  description,
  layout = "padded",
  className = "max-w-2xl",
  closeKeys = ["Escape"],
  focusClose = true,
  children,
}: {
  onClose(): void;
  title: ReactNode;
  /** The dialog's accessible name (default: `title` when it is a string). */
  label?: string;
  testId?: string;
  icon?: ReactNode;
  description?: ReactNode;
  /** `padded`: the body flows under the header; `sections`: header, body and footer separated by rules (the children bring the body and footer). */
  layout?: "padded" | "sections";
  /** The panel's width and extra classes. */
  className?: string;
  closeKeys?: readonly string[];
  focusClose?: boolean;
  children: ReactNode;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  // On mount and unmount only: the focus is taken once and given back once, so `focusClose` counts as it was
  // at mount.
  const focusCloseOnMount = useRef(focusClose);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    if (focusCloseOnMount.current) closeRef.current?.focus();
    return () => previous?.focus?.();
  }, []);
  const sections = layout === "sections";
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-zinc-900/30 p-4 backdrop-blur-[1px]"
      onMouseDown={onClose}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label={label}
        data-testid={testId}
        className={`w-full rounded-xl border border-zinc-200 bg-white shadow-2xl ${sections ? "flex max-h-[80vh] flex-col" : "max-h-[85vh] overflow-auto p-5"} ${className}`}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (closeKeys.includes(e.key)) {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <div className={`flex items-start gap-3 ${sections ? "border-b border-zinc-100 p-4" : "mb-4"}`}>
          {icon}
          <div className="min-w-0 flex-1">
            <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
            {description && <p className="mt-0.5 text-sm text-zinc-600">{description}</p>}
          </div>
          <button
            ref={closeRef}
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
          >
            <X size={16} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export type ShortcutGroup = { title: string; keys: [string[], string][] };

/** Keyboard shortcuts in groups (the body of a shortcuts dialog); `groupClassName` gives a group extra classes. */
export function ShortcutGroups({
  groups,
  groupClassName,
}: {
  groups: ShortcutGroup[];
  groupClassName?: (group: ShortcutGroup) => string;
}) {
  return (
    <div className="grid gap-6 sm:grid-cols-2">
      {groups.map((g) => (
        <section key={g.title} className={groupClassName?.(g) || undefined}>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-zinc-500">{g.title}</h3>
          <dl className="space-y-1.5 text-sm">
            {g.keys.map(([keys, what], i) => (
              <div key={i} className="flex items-center justify-between gap-3">
                <dt className="text-zinc-700">{what}</dt>
                <dd className="flex shrink-0 gap-1">
                  {keys.map((k) => (
                    <kbd
                      key={k}
                      className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700 shadow-[0_1px_0_var(--color-zinc-300)]"
                    >
                      {k}
                    </kbd>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}
