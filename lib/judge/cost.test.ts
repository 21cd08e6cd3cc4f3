import { describe, expect, it } from "vitest";
import { judgeCostUsd } from "./cost";

describe("judgeCostUsd", () => {
  const prices = { priceInputPerM: 2, priceCachedInputPerM: 0.5, priceOutputPerM: 8 };

  it("bills cached input at the cached price and only the rest at the input price", () => {
    // 1M input of which 400k cached: 600k × $2 + 400k × $0.5 + 250k output × $8.
    expect(judgeCostUsd(prices, { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 250_000 })).toBe(
      1.2 + 0.2 + 2,
    );
  });

  it("is zero for no tokens", () => {
    expect(judgeCostUsd(prices, { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 })).toBe(0);
  });
});
