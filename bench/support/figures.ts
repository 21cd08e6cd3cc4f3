/** Reporting and statistics shared by the bench scripts. */
export { percentile } from "@/test/server/harness";

/** One figure on the line `npm run bench` reads: `BENCH name value unit` (seconds with 2 decimals, anything else with 1, unless `digits` says). */
export const report = (name: string, value: number, unit: string, digits = unit === "s" ? 2 : 1) =>
  console.log(`BENCH ${name} ${value.toFixed(digits)} ${unit}`);

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `work`, or an error naming `what` when it has not settled within `ms`. */
export async function withTimeout<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
