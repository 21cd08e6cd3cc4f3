"use client";

import { useLayoutEffect, useState, type RefObject } from "react";

/**
 * The room every ancestor keeps below the element (its bottom margin, the ancestors' bottom padding
 * and borders): the layout's `<main>` pads its bottom, and a workspace that ignored it made the page
 * a few pixels taller than the window, with a page scrollbar.
 */
function roomBelow(el: HTMLElement): number {
  let room = parseFloat(getComputedStyle(el).marginBottom) || 0;
  for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
    const s = getComputedStyle(p);
    room += (parseFloat(s.paddingBottom) || 0) + (parseFloat(s.borderBottomWidth) || 0);
  }
  return room;
}

/**
 * The height from the element's top to the bottom of the window, less the room its ancestors keep
 * below it (at least `gap`), never under `min` (a full-screen workspace: the rubric editor, the
 * review page). Followed on resize. Rounded down: a fractional top must not add a pixel of scroll.
 */
export function useFillHeight(ref: RefObject<HTMLElement | null>, { min, gap }: { min: number; gap: number }): number {
  const [height, setHeight] = useState(640);
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(min, Math.floor(window.innerHeight - top - Math.max(gap, roomBelow(el)))));
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [ref, min, gap]);
  return height;
}
