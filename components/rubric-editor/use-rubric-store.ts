"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { RubricStore } from "./rubric-store";
import type { RubricSnapshot } from "./rubric-store-types";

/** One store per editor: loads the rows, queues the changes, rolls back refusals with a toast. */
export function useRubricStore(paperId: string, canEdit: boolean): { snap: RubricSnapshot; store: RubricStore } {
  const [store] = useState(
    () =>
      new RubricStore({
        paperId,
        canEdit,
        onRefused: (message, { label, origin }) =>
          toast.error(message, {
            id: `refused-${label}-${message}`,
            description:
              origin === "do" ? `“${label}” was not saved and has been rolled back.` : `${label} could not be applied.`,
          }),
      }),
  );
  useEffect(() => {
    let left = false;
    // Follow live changes once the rows are loaded, from the revision they are at.
    void store.load().then(() => {
      if (!left) store.follow();
    });
    return () => {
      left = true;
      store.unfollow();
    };
  }, [store]);
  return { snap: useRubricSnapshot(store), store };
}

/** The store's snapshot: re-renders the caller on every change (a keystroke, a save, a reload). */
export function useRubricSnapshot(store: RubricStore): RubricSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/** The rubric's revision: re-renders the caller only when it moves (each saved change), not on every change. */
export function useRubricRevision(store: RubricStore): number {
  const revision = () => store.getSnapshot().revision;
  return useSyncExternalStore(store.subscribe, revision, revision);
}
