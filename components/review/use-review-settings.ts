"use client";

import { useCallback, useEffect, useState } from "react";
import {
  DEFAULT_REVIEW_SETTINGS,
  parseReviewSettings,
  REVIEW_SETTINGS_KEY,
  type ReviewSettings,
} from "@/lib/review/settings";

/** The settings (the defaults until the saved ones are read after mounting, so that the server's HTML matches) and a setter that saves them. */
export function useReviewSettings(): [ReviewSettings, (change: Partial<ReviewSettings>) => void] {
  const [settings, setSettings] = useState<ReviewSettings>(DEFAULT_REVIEW_SETTINGS);
  useEffect(() => setSettings(parseReviewSettings(localStorage.getItem(REVIEW_SETTINGS_KEY))), []);
  const change = useCallback((c: Partial<ReviewSettings>) => {
    setSettings((s) => {
      const next = { ...s, ...c };
      localStorage.setItem(REVIEW_SETTINGS_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  return [settings, change];
}
