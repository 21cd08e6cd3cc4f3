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
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return { snap, store };
}
