"use client";

import { ChevronDown, ChevronUp, CircleAlert, Search, X } from "lucide-react";

/** Small controls of the editor's header and toolbar. */

export function SaveState({ pending, offline }: { pending: number; offline: string | null }) {
  if (offline) {
    return (
      <span className="flex items-center gap-1 font-medium text-red-700" data-testid="save-state" role="status">
        <CircleAlert size={12} /> {offline} · {pending} pending
      </span>
    );
  }
  return (
    <span data-testid="save-state" role="status" className={pending ? "text-amber-700" : "text-emerald-700"}>
      {pending === 0 ? "Saved" : pending === 1 ? "Saving…" : `${pending} pending`}
    </span>
  );
}

export function SearchBox({
  inputRef,
  value,
  onChange,
  count,
  at,
  onStep,
}: {
  inputRef: React.RefObject<HTMLInputElement | null>;
  value: string;
  onChange(v: string): void;
  count: number;
  at: number;
  onStep(delta: number): void;
}) {
  const active = value.trim() !== "";
  return (
    // One width whether empty, focused or counting matches, so that searching never moves the toolbar.
    <div className="flex h-8 w-60 shrink-0 items-center rounded-md border border-zinc-300 bg-white focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-200">
      <Search size={14} className="ml-2 shrink-0 text-zinc-400" aria-hidden />
      <input
        ref={inputRef}
        type="search"
        data-testid="search-input"
        aria-label="Search requirements"
        placeholder="Search requirements  /"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            onStep(e.shiftKey ? -1 : 1);
          } else if (e.key === "Escape") {
            e.preventDefault();
            if (value) onChange("");
            else e.currentTarget.blur();
          }
        }}
        className="h-full min-w-0 flex-1 bg-transparent px-2 text-sm outline-none placeholder:text-zinc-400 [&::-webkit-search-cancel-button]:hidden"
      />
      {active && (
        <>
          <span
            className="shrink-0 px-1 text-xs tabular-nums text-zinc-500"
            data-testid="search-count"
            aria-live="polite"
          >
            {count === 0 ? "no matches" : `${at} of ${count.toLocaleString("en")}`}
          </span>
          <button
            type="button"
            aria-label="Previous match"
            title="Previous match (Shift+Enter)"
            onClick={() => onStep(-1)}
            disabled={count === 0}
            className="p-1 text-zinc-500 hover:text-zinc-900 disabled:text-zinc-300"
          >
            <ChevronUp size={14} />
          </button>
          <button
            type="button"
            aria-label="Next match"
            title="Next match (Enter)"
            onClick={() => onStep(1)}
            disabled={count === 0}
            className="p-1 text-zinc-500 hover:text-zinc-900 disabled:text-zinc-300"
          >
            <ChevronDown size={14} />
          </button>
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => onChange("")}
            className="mr-1 p-1 text-zinc-400 hover:text-zinc-900"
          >
            <X size={13} />
          </button>
        </>
      )}
    </div>
  );
}

export function FilterSelect({
  label,
  value,
  onChange,
  options,
  testId,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  options: [string, string][];
  testId: string;
}) {
  return (
    <select
      aria-label={`Filter by ${label.toLowerCase()}`}
      data-testid={testId}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      title={
        value ? `${label}: ${options.find(([v]) => v === value)?.[1] ?? value}` : `Filter by ${label.toLowerCase()}`
      }
      className={`h-8 w-[6.75rem] rounded-md border px-1.5 text-xs ${
        value
          ? "border-indigo-400 bg-indigo-50 font-medium text-indigo-800"
          : "border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50"
      }`}
    >
      <option value="">{label}</option>
      {options.map(([v, l]) => (
        <option key={v} value={v}>
          {l}
        </option>
      ))}
    </select>
  );
}
