import { describe, expect, it } from "vitest";
import { formatDurationS } from "./duration";

describe("formatDurationS", () => {
  it.each([
    [0, "0 s"],
    [30, "30 s"],
    [90, "1 min 30 s"],
    [2700, "45 min"],
    [5400, "1 h 30 min"],
    [86_400, "24 h"],
    [3 * 86_400 + 60, "72 h 1 min"],
    [7 * 86_400 + 3600 + 1, "169 h 1 s"],
    [59.6, "1 min"],
  ])("%d s reads %s", (seconds, text) => {
    expect(formatDurationS(seconds)).toBe(text);
  });
});
