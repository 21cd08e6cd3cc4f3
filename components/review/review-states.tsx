"use client";

import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { Workspace } from "@/components/ui/workspace";

/** The grading could not be loaded: why, and a way to try again. */
export function ReviewLoadError({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <div
      className="mx-auto mt-10 max-w-lg rounded-lg border border-red-200 bg-red-50 p-6"
      role="alert"
      data-testid="review-error"
    >
      <h1 className="text-lg font-semibold text-red-900">The grading could not be loaded</h1>
      <p className="mt-2 text-sm text-red-800">{message}</p>
      <div className="mt-4 flex gap-2">
        <Button onClick={onRetry}>Try again</Button>
        <Link href="/reviews" className={buttonClass("secondary")}>
          My reviews
        </Link>
      </div>
    </div>
  );
}

/** The review page's three columns, empty, while the grading loads. */
export function ReviewSkeleton({
  rootRef,
  height,
}: {
  rootRef: React.RefObject<HTMLDivElement | null>;
  height: number;
}) {
  return (
    <Workspace rootRef={rootRef} height={height} testId="review-loading" busy>
      <div className="h-10 w-96 animate-pulse rounded-md bg-zinc-100" />
      <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1.25fr)_minmax(20rem,1fr)_minmax(0,1fr)] gap-3">
        {[0, 1, 2].map((i) => (
          <div key={i} className="animate-pulse rounded-lg border border-zinc-200 bg-white" />
        ))}
      </div>
    </Workspace>
  );
}
