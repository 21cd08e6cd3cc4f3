import { describe, expect, it } from "vitest";
import { DEFAULT_REVIEW_SETTINGS, parseReviewSettings } from "./settings";

describe("parseReviewSettings", () => {
  it("reads what was saved and falls back to the defaults for the rest", () => {
    expect(parseReviewSettings(null)).toEqual(DEFAULT_REVIEW_SETTINGS);
    expect(parseReviewSettings('{"autoAdvance":false}')).toEqual({ wrapRows: true, autoAdvance: false });
    expect(parseReviewSettings('{"wrapRows":"no"}')).toEqual(DEFAULT_REVIEW_SETTINGS);
    expect(parseReviewSettings("not json")).toEqual(DEFAULT_REVIEW_SETTINGS);
    expect(parseReviewSettings("null")).toEqual(DEFAULT_REVIEW_SETTINGS);
  });
});
