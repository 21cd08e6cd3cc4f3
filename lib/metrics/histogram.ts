import type { MetricFamily, Sample } from "./exposition";

/** Prometheus' default buckets (seconds): 5 ms to 10 s, what an HTTP handler takes. */
export const DEFAULT_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface Series {
  labels: Record<string, string>;
  /** Observations at or below each bucket's bound (not yet cumulative). */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram kept in memory: observations counted per label set into fixed buckets,
 * written as cumulative `_bucket{le}` samples with `+Inf`, `_sum` and `_count` (lifetime counters
 * of this process; Prometheus' rate() turns them into latencies over time).
 */
export class Histogram {
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[] = DEFAULT_BUCKETS_S,
  ) {}

  observe(labels: Record<string, string>, value: number): void {
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
    let s = this.series.get(key);
    if (!s) {
      s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    const i = this.buckets.findIndex((bound) => value <= bound);
    if (i >= 0) s.counts[i] += 1;
    s.sum += value;
    s.count += 1;
  }

  family(): MetricFamily {
    const samples: Sample[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += s.counts[i];
        samples.push({ suffix: "_bucket", labels: { ...s.labels, le: String(bound) }, value: cumulative });
      });
      samples.push(
        { suffix: "_bucket", labels: { ...s.labels, le: "+Inf" }, value: s.count },
        { suffix: "_sum", labels: s.labels, value: s.sum },
        { suffix: "_count", labels: s.labels, value: s.count },
      );
    }
    return { name: this.name, help: this.help, type: "histogram", samples };
  }
}
