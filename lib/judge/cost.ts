/**
 * What a judge's tokens cost: the one cost rule, used for a run's estimate, each stored verdict's
 * cost and the judge lab's calibration call. Prices are a judge configuration's, in US dollars per
 * million tokens. Pure.
 */

export interface JudgePrices {
  priceInputPerM: number;
  priceCachedInputPerM: number;
  priceOutputPerM: number;
}

export interface JudgeTokens {
  inputTokens: number;
  /** Part of `inputTokens` the provider served from its cache, at the cached price. */
  cachedInputTokens: number;
  /** Reasoning tokens included: the provider bills them as output. */
  outputTokens: number;
}

/** US dollars for these tokens at a configuration's prices. */
export function judgeCostUsd(prices: JudgePrices, t: JudgeTokens): number {
  const uncachedInput = t.inputTokens - t.cachedInputTokens;
  return (
    (uncachedInput * prices.priceInputPerM +
      t.cachedInputTokens * prices.priceCachedInputPerM +
      t.outputTokens * prices.priceOutputPerM) /
    1_000_000
  );
}
