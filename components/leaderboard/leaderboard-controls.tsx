"use client";

import { usePathname, useRouter } from "next/navigation";
import { useTransition } from "react";
import type { Variant } from "@/lib/grading/variant";
import { leaderboardHref } from "@/lib/leaderboard/query";
import type { LeaderboardView } from "@/lib/leaderboard/types";

const VARIANT_LABEL: Record<Variant, string> = { full: "Full", "code-dev": "Code-Dev" };

/**
 * Split, paper and variant pickers: each choice is a new URL (`?split=&variant=&paper=`), shareable.
 * The paper picker opens a per-paper board (every agent's runs on it); its first option is the
 * split's board.
 */
export function LeaderboardControls({
  view,
}: {
  view: Pick<LeaderboardView, "paper" | "gradedPapers" | "split" | "splits" | "variant" | "variants">;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const go = (split: string, variant: Variant, paper: string | null) =>
    startTransition(() => router.push(leaderboardHref(pathname, { split, variant, paper, open: [] })));
  const paper = view.paper?.id ?? "";
  // The paper shown stays offered even when nobody graded it in this variant.
  const papers =
    view.paper && !view.gradedPapers.some((p) => p.id === paper)
      ? [view.paper, ...view.gradedPapers]
      : view.gradedPapers;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" aria-busy={pending}>
      {/* The split's whole name and size show: its select takes the width its longest option needs. */}
      <label className="flex max-w-full items-center gap-2">
        <span className="text-zinc-600">Split</span>
        <select
          value={view.split}
          onChange={(e) => go(e.target.value, view.variant, null)}
          className="max-w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5"
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
      <label className="flex items-center gap-2">
        <span className="text-zinc-600">Paper</span>
        <select
          value={paper}
          onChange={(e) => go(view.split, view.variant, e.target.value || null)}
          className="max-w-56 rounded-md border border-zinc-300 bg-white px-2 py-1.5"
          data-testid="paper-select"
        >
          <option value="">Every paper of the split</option>
          {papers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id}
            </option>
          ))}
        </select>
      </label>
      <div role="group" aria-label="Variant" className="inline-flex overflow-hidden rounded-md border border-zinc-300">
        {view.variants.map((v) => (
          <button
            key={v}
            type="button"
            onClick={() => v !== view.variant && go(view.split, v, view.paper?.id ?? null)}
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
