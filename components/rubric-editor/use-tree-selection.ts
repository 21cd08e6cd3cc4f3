"use client";

import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { NodeApi, TreeApi } from "react-arborist";
import type { Derived, TreeItem } from "./derive";

export type SelectMode = "edit" | "focus" | "quiet";

/**
 * The tree's selection: the selected keys and the primary one (the inspector's), and a way to
 * select a node from anywhere once the tree shows it.
 */
export function useTreeSelection(treeRef: RefObject<TreeApi<TreeItem> | null>, derived: Derived) {
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  const [primary, setPrimary] = useState<string | null>(null);
  const pendingSelect = useRef<{ key: string; mode: SelectMode; tries: number } | null>(null);
  // Bumped to render once more after a change whose node the tree must select (see the effect below).
  const [, setSelectionTick] = useState(0);
  const latestDerived = useRef(derived);
  latestDerived.current = derived;

  /**
   * Selects a node once the tree shows it: react-arborist only knows the visible nodes, so a node in
   * a closed subtree gets its ancestors opened first (a render later). `edit` starts editing its
   * text; `focus` moves the keyboard focus to the tree; otherwise the focus stays where it is (a
   * panel, the search box) and only the tree's cursor moves.
   */
  const requestSelect = useCallback((key: string, mode: SelectMode) => {
    pendingSelect.current = { key, mode, tries: 0 };
    setSelectionTick((n) => n + 1);
  }, []);

  // A layout effect: a node added from the keyboard is in edit mode before the next key arrives.
  // After every render, with no dependency list, on purpose: a pending selection completes on whichever render
  // first shows its node in the tree (the tree mounting, new rubric data, parents opened); the extra renders it
  // asks for itself stop after 3 tries.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs after every render by design (see above)
  useLayoutEffect(() => {
    const p = pendingSelect.current;
    const tree = treeRef.current;
    if (!p || !tree) return;
    if (!tree.get(p.key)) {
      if (p.tries++ < 3 && latestDerived.current.index.byKey.has(p.key)) {
        tree.openParents(p.key);
        setSelectionTick((n) => n + 1);
      } else pendingSelect.current = null;
      return;
    }
    pendingSelect.current = null;
    if (p.mode === "edit") {
      tree.select(p.key);
      void tree.edit(p.key);
    } else if (p.mode === "focus") {
      tree.select(p.key);
    } else {
      tree.select(p.key, { focus: false, align: "center" });
      // Move the tree's cursor there too, without taking the focus from where the user is.
      tree.dispatch({ type: "FOCUS", id: p.key });
      if (!document.activeElement?.closest('[data-testid="editor-tree"]')) tree.dispatch({ type: "TREE_BLUR" });
    }
  });

  const onSelect = useCallback(
    (nodes: NodeApi<TreeItem>[]) => {
      const ids = nodes.map((n) => n.id);
      setSelectedKeys(ids);
      setPrimary(treeRef.current?.mostRecentNode?.id ?? ids.at(-1) ?? null);
    },
    [treeRef],
  );

  // A selected node that no longer exists (deleted, undone) is let go.
  const selectedRow = primary ? derived.index.byKey.get(primary) : undefined;
  const liveSelection = useMemo(
    () => selectedKeys.filter((k) => derived.index.byKey.has(k)),
    [selectedKeys, derived.index],
  );

  return { primary, selectedRow, liveSelection, requestSelect, onSelect };
}
