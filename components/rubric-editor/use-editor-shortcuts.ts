"use client";

import type { RefObject } from "react";
import type { TreeApi } from "react-arborist";
import { usePageKeys } from "@/components/hooks/use-page-keys";
import type { TreeItem } from "./derive";
import type { RubricStore } from "./rubric-store";

export interface ShortcutActions {
  addChild(key: string | null | undefined): void;
  addSibling(key: string | null | undefined): void;
  duplicate(key: string | null | undefined): void;
  deleteKeys(keys: readonly string[]): void;
  editKey(key: string | null | undefined): void;
}

/**
 * The editor's keyboard: undo/redo anywhere outside a text field, `?` help, `/` search, and the node
 * keys (Delete, a, s, d, Enter/F2) on the selection when the focus is in the tree. Node keys are
 * handled before react-arborist (which would start an edit from a timer) and rendered at once, so
 * that the keys typed right after land in the new editor, not on the row.
 */
export function useEditorShortcuts({
  store,
  treeRef,
  searchRef,
  canEditRef,
  selectionRef,
  actions,
  toggleHelp,
}: {
  store: RubricStore;
  treeRef: RefObject<TreeApi<TreeItem> | null>;
  searchRef: RefObject<HTMLInputElement | null>;
  canEditRef: RefObject<{ canEdit: boolean }>;
  selectionRef: RefObject<{ primary: string | null; liveSelection: string[] }>;
  actions: RefObject<ShortcutActions>;
  toggleHelp(): void;
}): void {
  usePageKeys((e, t) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && !e.altKey && e.key.toLowerCase() === "z") {
      e.preventDefault();
      if (e.shiftKey) store.redo();
      else store.undo();
      return null;
    }
    if (mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "y") {
      e.preventDefault();
      store.redo();
      return null;
    }
    if (mod || e.altKey) return null;
    if (e.key === "?") {
      e.preventDefault();
      toggleHelp();
      return null;
    }
    if (e.key === "/") {
      e.preventDefault();
      searchRef.current?.focus();
      searchRef.current?.select();
      return null;
    }
    // Node keys act on the selection when the focus is in the tree (or nowhere in particular).
    const inTree = !!t?.closest('[data-testid="editor-tree"]');
    const onBody = !t || t === document.body;
    if (!inTree && !onBody) return null;
    if (treeRef.current?.isEditing || !canEditRef.current.canEdit) return null;
    const { primary, liveSelection: sel } = selectionRef.current;
    const key = (inTree ? treeRef.current?.focusedNode?.id : null) ?? primary;
    const a = actions.current;
    switch (e.key) {
      case "Delete":
      case "Backspace":
        return () => a.deleteKeys(sel.length ? sel : key ? [key] : []);
      case "a":
        return () => a.addChild(key);
      case "s":
        return () => a.addSibling(key);
      case "d":
        return () => a.duplicate(key);
      case "F2":
      case "Enter":
        return () => a.editKey(key);
      default:
        return null;
    }
  });
}
