"use client";

import { useCallback, useEffect, useState, type KeyboardEvent, type PointerEvent } from "react";

/**
 * The width of a side pane the user can resize by dragging (or with the arrow keys on) a separator,
 * kept in localStorage under `storageKey`. Until the user picks one, it follows the window: `narrow`
 * below 1280 px (a 1024 px window leaves the tree too little room otherwise), `wide` above.
 * `side` says where the pane is: a separator on its left edge grows it when dragged left.
 */
export function usePaneWidth(
  storageKey: string,
  { narrow, wide, min, max, side }: { narrow: number; wide: number; min: number; max: number; side: "left" | "right" },
) {
  const [chosen, setChosen] = useState<number | null>(null);
  const [windowWidth, setWindowWidth] = useState(1440);
  useEffect(() => {
    const saved = Number(localStorage.getItem(storageKey));
    if (saved >= min && saved <= max) setChosen(saved);
    const measure = () => setWindowWidth(window.innerWidth);
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [storageKey, min, max]);

  // Never more than half the window: the other pane keeps its room at any size.
  const limit = Math.max(min, Math.min(max, Math.floor(windowWidth / 2)));
  const width = Math.min(limit, chosen ?? (windowWidth < 1280 ? narrow : wide));

  const choose = useCallback(
    (w: number) => {
      const next = Math.round(Math.min(max, Math.max(min, w)));
      setChosen(next);
      localStorage.setItem(storageKey, String(next));
    },
    [storageKey, min, max],
  );

  const onPointerDown = (e: PointerEvent<HTMLElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const startX = e.clientX;
    const startWidth = width;
    const sign = side === "right" ? -1 : 1;
    const move = (ev: globalThis.PointerEvent) => choose(startWidth + sign * (ev.clientX - startX));
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const step = e.shiftKey ? 64 : 16;
    const grow = side === "right" ? "ArrowLeft" : "ArrowRight";
    const shrink = side === "right" ? "ArrowRight" : "ArrowLeft";
    if (e.key === grow) choose(width + step);
    else if (e.key === shrink) choose(width - step);
    else return;
    e.preventDefault();
  };

  return {
    width,
    separatorProps: {
      role: "separator" as const,
      "aria-orientation": "vertical" as const,
      "aria-valuenow": width,
      "aria-valuemin": min,
      "aria-valuemax": limit,
      tabIndex: 0,
      onPointerDown,
      onKeyDown,
    },
  };
}
