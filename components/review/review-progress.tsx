"use client";

import { categoryStyle } from "@/components/rubric-editor/categories";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { ReviewProgress } from "@/lib/review/review-model";

/** Reviewed / total leaves, overall and per task category: always in the review page's header. */
export function ReviewProgressBar({ progress, own }: { progress: ReviewProgress; own: boolean }) {
  return (
    <div
      className="flex min-w-0 items-center gap-3 text-xs"
      data-testid="review-progress"
      title={own ? "Leaves you have reviewed" : "Leaves anyone has reviewed"}
    >
      <div className="flex items-center gap-2">
        <span className="text-zinc-500">{own ? "You reviewed" : "Reviewed"}</span>
        <span className="font-mono font-semibold tabular-nums text-zinc-900" data-testid="progress-count">
          {progress.reviewed.toLocaleString("en")} / {progress.total.toLocaleString("en")}
        </span>
        <ProgressBar
          value={progress.reviewed}
          total={progress.total}
          className="h-1.5 w-16 bg-zinc-200 xl:w-24"
          barClassName="rounded-full bg-emerald-500 transition-[width]"
        />
      </div>
      <div className="hidden items-center gap-2 lg:flex">
        {progress.byCategory.map((c) => (
          <span
            key={c.category}
            className="flex items-center gap-1 text-zinc-600"
            data-testid="progress-category"
            data-category={c.category}
          >
            <span className={`size-2 rounded-full ${categoryStyle(c.category).bar}`} aria-hidden />
            <span className="truncate">{categoryStyle(c.category).short || c.category}</span>
            <span className="font-mono tabular-nums text-zinc-900">
              {c.reviewed}/{c.total}
            </span>
          </span>
        ))}
      </div>
    </div>
  );
}
