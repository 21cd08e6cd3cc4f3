"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * Opens the editor at the node a link names (`?node=<key>`: a notification, a shared link): once
 * the tree is on screen (`treeShown`; before it, the selection would have no tree to land in), the
 * node is selected and shown, its ancestors opened; once per link, so hiding and showing the tree
 * later leaves the selection alone. A node that no longer exists is ignored.
 */
export function useLinkedNode(selectKey: (key: string) => void, treeShown: boolean): void {
  const node = useSearchParams().get("node");
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (!node || !treeShown || handled.current === node) return;
    handled.current = node;
    selectKey(node);
  }, [node, treeShown, selectKey]);
}
