"use client";

import type { ReactNode } from "react";
import { ProgressBar } from "@/components/ui/progress-bar";
import { formatShare, NO_CATEGORY } from "@/lib/rubric/shares";
import { FINEGRAINED_TASK_CATEGORIES, TASK_CATEGORIES } from "@/lib/rubric/types";
import { categoryStyle } from "./categories";

/** A node's share of the final score, split by task category and by fine-grained category. */
export function ShareBreakdown({
  byCategory,
  total,
  leaf,
}: {
  byCategory: { taskCategory: Record<string, number>; finegrained: Record<string, number> };
  total: number;
  leaf: boolean;
}) {
  const order = (rec: Record<string, number>, known: readonly string[]) =>
    Object.entries(rec).sort((a, b) => {
      const ia = known.indexOf(a[0]);
      const ib = known.indexOf(b[0]);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || b[1] - a[1];
    });
  const task = order(byCategory.taskCategory, [...TASK_CATEGORIES, NO_CATEGORY]);
  const fine = order(byCategory.finegrained, [...FINEGRAINED_TASK_CATEGORIES, NO_CATEGORY]);
  if (task.length === 0) return null;
  return (
    <section
      aria-label="Share of the final score by category"
      className="space-y-3 border-t border-zinc-100 pt-3"
      data-testid="inspector-breakdown"
    >
      <h3 className="text-xs font-medium text-zinc-700">
        {leaf ? "This leaf's share of the final score" : "This subtree's share of the final score, by category"}
      </h3>
      <h4 className="text-[10px] font-semibold uppercase tracking-wide text-zinc-500">Task category</h4>
      <BarList items={task} total={total} colour={(k) => (k === NO_CATEGORY ? "bg-zinc-300" : categoryStyle(k).bar)} />
      <h4 className="text-[10px] font-semibold uppercase tracking-wide text-zinc-500">Fine-grained category</h4>
      <BarList items={fine} total={total} colour={(k) => (k === NO_CATEGORY ? "bg-zinc-300" : "bg-zinc-500")} small />
    </section>
  );
}

function BarList({
  items,
  total,
  colour,
  small,
}: {
  items: [string, number][];
  total: number;
  colour(key: string): string;
  small?: boolean;
}): ReactNode {
  return (
    <ul className="space-y-1.5">
      {items.map(([k, v]) => (
        <li key={k} className="text-xs" title={`${k}: ${formatShare(v)} of the final score`}>
          <div className="flex items-baseline justify-between gap-2">
            <span className={`truncate ${small ? "text-zinc-500" : "text-zinc-700"}`}>
              {k === NO_CATEGORY ? "No category" : k}
            </span>
            <span className="shrink-0 font-mono tabular-nums text-zinc-600">{formatShare(v)}</span>
          </div>
          <ProgressBar
            value={v}
            total={total}
            minPercent={1}
            className={`mt-0.5 bg-zinc-100 ${small ? "h-1" : "h-1.5"}`}
            barClassName={`rounded-full ${colour(k)}`}
          />
        </li>
      ))}
    </ul>
  );
}
