import type fc from "fast-check";

/** What a property may set; a time limit always counts as a failure (below). */
type PropertyOptions<T> = Omit<fc.Parameters<T>, "markInterruptAsFailure" | "skipAllAfterTimeLimit" | "path"> & {
  numRuns: number;
};

/**
 * The parameters of every fast-check property in the suite: `fc.assert(property, propertyParams({ numRuns: 300 }))`.
 *
 * A failing property's message names its seed and path (`{ seed: 1234, path: "17:2:0", … }`);
 * `FC_SEED=1234 FC_PATH=17:2:0` replays exactly that case (with `FC_SEED` alone, the whole run).
 * `FC_RUNS=<n>` runs n cases in every property, to hunt for rare failures. A property that fixes a
 * seed of its own still takes `FC_SEED` over it.
 *
 * `numRuns` is a floor: a property given `interruptAfterTimeLimit` (to bound a slow shrink, and
 * print its seed before the test's own timeout) fails when the limit cuts it short, never passes
 * after fewer cases.
 */
export function propertyParams<T>(options: PropertyOptions<T>): fc.Parameters<T> {
  const seed = process.env.FC_SEED?.trim();
  const runs = process.env.FC_RUNS?.trim();
  if (seed && !Number.isSafeInteger(Number(seed)))
    throw new Error(`FC_SEED must be an integer (the seed a failure printed), not "${seed}"`);
  if (runs && !(Number.isSafeInteger(Number(runs)) && Number(runs) > 0))
    throw new Error(`FC_RUNS must be a positive integer, not "${runs}"`);
  return {
    ...options,
    markInterruptAsFailure: true,
    ...(runs ? { numRuns: Number(runs) } : {}),
    ...(seed ? { seed: Number(seed), ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}) } : {}),
  };
}
