"use client";

import { usePageKeys } from "@/components/hooks/use-page-keys";

export interface ReviewKeyActions {
  step(dir: 1 | -1): void;
  nextUnreviewed(): void;
  setScore(score: number): void;
  focusReason(): void;
  focusUnsure(): void;
  toggleHelp(): void;
}

/** The review page's keyboard: j / k leaves, n next unreviewed, 0 / 1 score, r reason, u unsure, ? help. */
export function useReviewKeys(actions: ReviewKeyActions): void {
  usePageKeys((e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return null;
    const a = actions;
    switch (e.key) {
      case "j":
        return () => a.step(1);
      case "k":
        return () => a.step(-1);
      case "n":
        return () => a.nextUnreviewed();
      case "0":
      case "1":
        return () => a.setScore(Number(e.key));
      case "r":
        return () => a.focusReason();
      case "u":
        return () => a.focusUnsure();
      case "?":
        return () => a.toggleHelp();
      default:
        return null;
    }
  });
}
