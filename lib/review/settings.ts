/** How a reviewer likes the review page, remembered in their browser (localStorage). Pure. */

export interface ReviewSettings {
  /** Tree rows take two lines (the text wraps) instead of one. */
  wrapRows: boolean;
  /** After a committed score the page moves to the next unreviewed leaf. */
  autoAdvance: boolean;
}

export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = { wrapRows: true, autoAdvance: true };

/** Where the settings are kept (localStorage); the bench sets them there too. */
export const REVIEW_SETTINGS_KEY = "rubric-studio:review-settings";

/** The saved settings (a JSON text, or null), the defaults for whatever is missing or unreadable. */
export function parseReviewSettings(saved: string | null): ReviewSettings {
  let value: Partial<Record<keyof ReviewSettings, unknown>> = {};
  try {
    value = JSON.parse(saved ?? "{}") ?? {};
  } catch {
    // A value another version wrote that is not JSON: the defaults.
  }
  return {
    wrapRows: typeof value.wrapRows === "boolean" ? value.wrapRows : DEFAULT_REVIEW_SETTINGS.wrapRows,
    autoAdvance: typeof value.autoAdvance === "boolean" ? value.autoAdvance : DEFAULT_REVIEW_SETTINGS.autoAdvance,
  };
}
