import type { ReactNode } from "react";
import { shortText } from "@/lib/short-text";

/** Small building blocks shared by the rubric editor's side panels. */

/** One line of requirement text of at most `max` characters, cut between words. */
export function truncateText(text: string, max = 120): string {
  return shortText(text, max) || "(no requirement text)";
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "3 minutes ago", "yesterday", "just now". */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((then - now) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds / 60), "minute");
}

export { useNow } from "@/components/hooks/use-now";

export const TASK_CATEGORY_STYLE: Record<string, string> = {
  "Code Development": "bg-sky-50 text-sky-800 ring-sky-200",
  "Code Execution": "bg-emerald-50 text-emerald-800 ring-emerald-200",
  "Result Analysis": "bg-violet-50 text-violet-800 ring-violet-200",
};

export function CategoryChip({ category }: { category: string }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded px-1.5 py-px text-[11px] leading-4 ring-1 ring-inset ${TASK_CATEGORY_STYLE[category] ?? "bg-zinc-50 text-zinc-700 ring-zinc-200"}`}
    >
      {category}
    </span>
  );
}

/** The frame every side panel shares: a titled card with an optional action area. */
export function PanelFrame({
  title,
  testId,
  actions,
  children,
  subtitle,
}: {
  title: string;
  testId: string;
  actions?: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section data-testid={testId} aria-label={title} className="flex min-w-0 flex-col gap-3 text-sm text-zinc-800">
      <header className="flex flex-wrap items-center gap-2">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-500">{title}</h2>
        {subtitle && <span className="text-xs text-zinc-500">{subtitle}</span>}
        {actions && <div className="ml-auto flex items-center gap-1.5">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** A dashed box for "nothing here" messages. */
export function EmptyState({ children, icon, testId }: { children: ReactNode; icon?: ReactNode; testId?: string }) {
  return (
    <div
      data-testid={testId}
      className="flex flex-col items-center gap-2 rounded-md border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600"
    >
      {icon}
      <div>{children}</div>
    </div>
  );
}

/** Pill button used for filters and toggles. */
export function Chip({
  pressed,
  onClick,
  children,
  title,
  tone = "neutral",
}: {
  pressed: boolean;
  onClick(): void;
  children: ReactNode;
  title?: string;
  tone?: "neutral" | "error" | "warning";
}) {
  const on =
    tone === "error"
      ? "border-red-300 bg-red-50 text-red-800"
      : tone === "warning"
        ? "border-amber-300 bg-amber-50 text-amber-900"
        : "border-indigo-300 bg-indigo-50 text-indigo-800";
  return (
    <button
      type="button"
      aria-pressed={pressed}
      title={title}
      onClick={onClick}
      className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 ${
        pressed ? on : "border-zinc-200 bg-white text-zinc-600 hover:border-zinc-300 hover:bg-zinc-50"
      }`}
    >
      {children}
    </button>
  );
}

/** A panel's list could not be loaded: the reason, and a way to try again. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex items-center gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800"
    >
      <span className="flex-1">{message}</span>
      <button type="button" className="font-medium underline" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
