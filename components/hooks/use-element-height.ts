"use client";

import { useLayoutEffect, useState, type RefObject } from "react";

/**
 * The element's height, followed (a virtualized tree needs its box's height in pixels).
 * `mounted` says when the element may have been replaced: false while it is not rendered.
 */
export function useElementHeight(ref: RefObject<HTMLElement | null>, mounted = true): number {
  const [h, setH] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !mounted) return;
    setH(el.clientHeight);
    const ro = new ResizeObserver(() => setH(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, mounted]);
  return h;
}
