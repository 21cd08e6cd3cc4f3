"use client";

import { useSearchParams } from "next/navigation";
import { useEffect } from "react";

/**
 * Opens the editor at the node a link names (`?node=<key>`: a notification, a shared link): the
 * node is selected and shown, its ancestors opened. A node that no longer exists is ignored.
 */
export function useLinkedNode(selectKey: (key: string) => void): void {
  const node = useSearchParams().get("node");
  useEffect(() => {
    if (node) selectKey(node);
  }, [node, selectKey]);
}
