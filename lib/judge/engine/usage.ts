/**
 * Token usage totals: per model, PaperBench's `{in, out}` (every call to it, ranking and parse
 * calls included) plus cached input, reasoning output and the number of calls (their cost: `lib/judge/cost.ts`).
 */
import type { CallUsage, LeafVerdict } from "../engine-contract";

export interface ModelUsage {
  in: number;
  out: number;
  cached_in: number;
  reasoning_out: number;
  calls: number;
}

const noUsage = (): ModelUsage => ({ in: 0, out: 0, cached_in: 0, reasoning_out: 0, calls: 0 });

function addInto(total: ModelUsage, u: ModelUsage): void {
  total.in += u.in;
  total.out += u.out;
  total.cached_in += u.cached_in;
  total.reasoning_out += u.reasoning_out;
  total.calls += u.calls;
}

export function usageByModel(calls: Iterable<CallUsage>): Record<string, ModelUsage> {
  const out: Record<string, ModelUsage> = {};
  for (const c of calls) {
    addInto((out[c.model] ??= noUsage()), {
      in: c.inputTokens,
      out: c.outputTokens,
      cached_in: c.cachedInputTokens,
      reasoning_out: c.reasoningTokens,
      calls: 1,
    });
  }
  return out;
}

/** Per-model totals of both (a run's totals so far plus one verdict's), as a new record. */
export function mergeUsage(a: Record<string, ModelUsage>, b: Record<string, ModelUsage>): Record<string, ModelUsage> {
  const out: Record<string, ModelUsage> = {};
  for (const usage of [a, b]) for (const [model, u] of Object.entries(usage)) addInto((out[model] ??= noUsage()), u);
  return out;
}

export function verdictsUsage(verdicts: Iterable<LeafVerdict>): Record<string, ModelUsage> {
  const calls: CallUsage[] = [];
  for (const v of verdicts) calls.push(...v.calls);
  return usageByModel(calls);
}

export function totalUsage(usage: Record<string, ModelUsage>): ModelUsage {
  const t = noUsage();
  for (const u of Object.values(usage)) addInto(t, u);
  return t;
}
