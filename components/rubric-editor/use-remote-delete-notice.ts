"use client";

import { createElement, useEffect, useRef } from "react";
import { toast } from "sonner";
import type { RubricStore } from "./rubric-store";
import { deleterName, StrandedDraftNotice } from "./stranded-draft-notice";

/**
 * Someone else deleted the node this person has selected (and may be editing): say who, offer it
 * back. When they had typed into it, that notice gives way to one that keeps their text and offers
 * it back with the node (`StrandedDraftNotice`).
 */
export function useRemoteDeleteNotice(store: RubricStore, selectedKey: string | null): void {
  const selectedRef = useRef(selectedKey);
  selectedRef.current = selectedKey;
  useEffect(() => {
    const offDelete = store.onRemoteDelete(({ roots, removed, by }) => {
      const selected = selectedRef.current;
      if (!selected || !removed.has(selected)) return;
      toast.warning(`${deleterName(by)} deleted the node you were working on`, {
        id: noticeId(roots),
        description: "Restore it to keep working on it.",
        duration: 15_000,
        action: {
          label: "Restore",
          onClick: () => store.submit({ kind: "restore", keys: roots }, { label: "Restore deleted nodes" }),
        },
      });
    });
    // The unsaved text reaches the store when its field closes, just after the delete was told.
    const offStranded = store.onStrandedEdit((edit) => {
      toast.dismiss(noticeId(edit.deletion.roots));
      const id = `stranded-${edit.op.key}`;
      toast.custom(() => createElement(StrandedDraftNotice, { store, edit, onDone: () => toast.dismiss(id) }), {
        id,
        duration: Infinity,
      });
    });
    return () => {
      offDelete();
      offStranded();
    };
  }, [store]);
}

const noticeId = (roots: readonly string[]) => `remote-delete-${roots.join(",")}`;
