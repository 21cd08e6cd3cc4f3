"use client";

import { usePathname, useRouter } from "next/navigation";
import { useTransition } from "react";
import type { Variant } from "@/lib/grading/variant";
import type { LeaderboardView } from "@/lib/leaderboard/types";

const VARIANT_LABEL: Record<Variant, string> = { full: "Full", "code-dev": "Code-Dev" };

/** Split and variant pickers: each choice is a new URL (`?split=&variant=`), shareable. */
export function LeaderboardControls({ view }: { view: LeaderboardView }) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const go = (split: string, variant: Variant) => {
    const params = new URLSearchParams({ split, variant });
    startTransition(() => router.push(`${pathname}?${params}`));
  };
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" aria-busy={pending}>
      <label className="flex items-center gap-2">
        <span className="text-zinc-600">Split</span>
        <select
          value={view.split}
          onChange={(e) => go(e.target.value, view.variant)}
          className="rounded-md border border-zinc-300 bg-white px-2 py-1.5"
          data-testid="split-select"
        >
          {view.splits.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name} ({s.paperCount} {s.paperCount === 1 ? "paper" : "papers"}
              {s.source === "studio" ? ", every graded paper" : ""})
            </option>
          ))}
        </select>
      </label>
      <div role="group" aria-label="Variant" className="inline-flex overflow-hidden rounded-md border border-zinc-300">
        {view.variants.map((v) => (
          <button
            key={v}
            type="button"
            onClick={() => v !== view.variant && go(view.split, v)}
            aria-pressed={v === view.variant}
            className={`px-3 py-1.5 font-medium ${v === view.variant ? "bg-indigo-600 text-white" : "bg-white text-zinc-700 hover:bg-zinc-50"}`}
            data-testid={`variant-${v}`}
          >
            {VARIANT_LABEL[v]}
          </button>
        ))}
      </div>
      {pending && <span className="text-xs text-zinc-500">Loading…</span>}
    </div>
  );
}
