/**
 * Token usage totals: per model, PaperBench's `{in, out}` (every call to it, ranking and parse
 * calls included) plus cached input, reasoning output and the number of calls; and their cost.
 */
import type { CallUsage, LeafVerdict } from "../engine-contract";

export interface ModelUsage {
  in: number;
  out: number;
  cached_in: number;
  reasoning_out: number;
  calls: number;
}

export function usageByModel(calls: Iterable<CallUsage>): Record<string, ModelUsage> {
  const out: Record<string, ModelUsage> = {};
  for (const c of calls) {
    const u = (out[c.model] ??= { in: 0, out: 0, cached_in: 0, reasoning_out: 0, calls: 0 });
    u.in += c.inputTokens;
    u.out += c.outputTokens;
    u.cached_in += c.cachedInputTokens;
    u.reasoning_out += c.reasoningTokens;
    u.calls += 1;
  }
  return out;
}

export function verdictsUsage(verdicts: Iterable<LeafVerdict>): Record<string, ModelUsage> {
  const calls: CallUsage[] = [];
  for (const v of verdicts) calls.push(...v.calls);
  return usageByModel(calls);
}

export function totalUsage(usage: Record<string, ModelUsage>): ModelUsage {
  const t: ModelUsage = { in: 0, out: 0, cached_in: 0, reasoning_out: 0, calls: 0 };
  for (const u of Object.values(usage)) {
    t.in += u.in;
    t.out += u.out;
    t.cached_in += u.cached_in;
    t.reasoning_out += u.reasoning_out;
    t.calls += u.calls;
  }
  return t;
}

/** US dollars per million tokens (a judge configuration's prices). */
export interface TokenPrices {
  inputPerM: number;
  cachedInputPerM: number;
  outputPerM: number;
}

/** Cost in US dollars: uncached input, cached input and output (reasoning tokens are output). */
export function usageCost(u: Pick<ModelUsage, "in" | "cached_in" | "out">, prices: TokenPrices): number {
  return ((u.in - u.cached_in) * prices.inputPerM + u.cached_in * prices.cachedInputPerM + u.out * prices.outputPerM) / 1_000_000;
}
