"use client";

import { useEffect, useRef } from "react";
import { flushSync } from "react-dom";

/**
 * A page's own keyboard shortcuts (the rubric editor, the review page). Keys typed in a text field,
 * or while a modal dialog is open (but `?`, which toggles the help), are left alone. `pick` says what
 * a key does: the action it returns runs before react-arborist sees the key (its type-ahead and
 * edit timers would act on it too) and is rendered at once, so that the keys typed right after land
 * where the action put the focus. One listener serves the whole life of the page; `pick` is read
 * fresh on every key.
 */
export function usePageKeys(pick: (e: KeyboardEvent, target: HTMLElement | null) => (() => void) | null): void {
  const pickRef = useRef(pick);
  pickRef.current = pick;
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.isComposing) return;
      const t = e.target instanceof HTMLElement ? e.target : null;
      // A checkbox or radio button is not a text field: the shortcuts still work after clicking one.
      if (t?.closest("input:not([type='checkbox'], [type='radio']), textarea, select, [contenteditable='true']"))
        return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]') && e.key !== "?") return;
      const act = pickRef.current(e, t);
      if (!act) return;
      e.preventDefault();
      e.stopPropagation();
      flushSync(act);
    }
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, []);
}
