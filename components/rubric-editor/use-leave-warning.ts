"use client";

import { useEffect } from "react";

/** Leaving the page with unsaved changes asks first. */
export function useLeaveWarning(pendingCount: number): void {
  useEffect(() => {
    if (pendingCount === 0) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [pendingCount]);
}
