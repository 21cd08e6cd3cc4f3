"use client";

import { useEffect } from "react";
import type { RubricStore } from "./rubric-store";

/**
 * Leaving the page with unsaved changes asks first. One listener for the editor's life, asking only
 * while a change waits for the server: adding and removing it with every change (each edit's
 * render, then its answer's) told the browser's process each time, work on every keystroke-sized edit.
 */
export function useLeaveWarning(store: RubricStore): void {
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (store.getSnapshot().pendingCount > 0) e.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [store]);
}
