"use client";

import { useLayoutEffect, useState, type RefObject } from "react";

/**
 * The height from the element's top to the bottom of the window, less `gap`, never under `min`
 * (a full-screen workspace: the rubric editor, the review page). Followed on resize.
 */
export function useFillHeight(ref: RefObject<HTMLElement | null>, { min, gap }: { min: number; gap: number }): number {
  const [height, setHeight] = useState(640);
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(min, window.innerHeight - top - gap));
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [ref, min, gap]);
  return height;
}
