"use client";

import { useEffect, useRef } from "react";
import { toast } from "sonner";
import type { RubricStore } from "./rubric-store";

/** Someone else deleted the node this person has selected (and may be editing): say so, offer it back. */
export function useRemoteDeleteNotice(store: RubricStore, selectedKey: string | null): void {
  const selectedRef = useRef(selectedKey);
  selectedRef.current = selectedKey;
  useEffect(
    () =>
      store.onRemoteDelete((roots, removed) => {
        const selected = selectedRef.current;
        if (!selected || !removed.has(selected)) return;
        toast.warning("Someone else deleted the node you were working on", {
          id: `remote-delete-${roots.join(",")}`,
          description: "Restore it to keep working on it; your unsaved text in the inspector is lost otherwise.",
          duration: 15_000,
          action: { label: "Restore", onClick: () => store.submit({ kind: "restore", keys: roots }, { label: "Restore deleted nodes" }) },
        });
      }),
    [store],
  );
}
