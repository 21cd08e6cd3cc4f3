"use client";

import { useCallback, useEffect, useState } from "react";

/** How a reviewer likes the review page, remembered in this browser. */
export interface ReviewSettings {
  /** Tree rows take two lines (the text wraps) instead of one. */
  wrapRows: boolean;
  /** After a committed score the page moves to the next unreviewed leaf. */
  autoAdvance: boolean;
}

const DEFAULTS: ReviewSettings = { wrapRows: true, autoAdvance: true };
/** Where the settings are kept (localStorage); the bench and the e2e specs set them here too. */
export const REVIEW_SETTINGS_KEY = "rubric-studio:review-settings";

function load(): ReviewSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(REVIEW_SETTINGS_KEY) ?? "{}") as Partial<Record<keyof ReviewSettings, unknown>>;
    return {
      wrapRows: typeof saved.wrapRows === "boolean" ? saved.wrapRows : DEFAULTS.wrapRows,
      autoAdvance: typeof saved.autoAdvance === "boolean" ? saved.autoAdvance : DEFAULTS.autoAdvance,
    };
  } catch {
    // A value another version wrote that is not JSON: the defaults.
    return DEFAULTS;
  }
}

/** The settings (the defaults until the saved ones are read after mounting, so that the server's HTML matches) and a setter that saves them. */
export function useReviewSettings(): [ReviewSettings, (change: Partial<ReviewSettings>) => void] {
  const [settings, setSettings] = useState<ReviewSettings>(DEFAULTS);
  useEffect(() => setSettings(load()), []);
  const change = useCallback((c: Partial<ReviewSettings>) => {
    setSettings((s) => {
      const next = { ...s, ...c };
      localStorage.setItem(REVIEW_SETTINGS_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  return [settings, change];
}
