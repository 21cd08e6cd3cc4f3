import "server-only";
import type { Store } from "@/db/client";
import { countJobsByKindAndStatus, summariseFinishedJobTimings, type JobTimingSummary } from "@/db/queries/jobs";
import { sumJudgeUsageByModel } from "@/db/queries/judge-runs";
import { countRunnersSeenWithin } from "@/db/queries/runners";
import { JOB_KINDS, JOB_STATUSES } from "@/lib/jobs/states";
import { renderExposition, type MetricFamily, type Sample } from "@/lib/metrics/exposition";
import { httpLatency } from "@/server/observability/http-latency";
import { runnerOnlineWithinS } from "@/server/runners/list-runners";

/** Claim wait and duration are summarised over the jobs that finished in this last window. */
export const TIMING_WINDOW_S = 60 * 60;
const QUANTILES = [0.5, 0.9, 0.99] as const;

/**
 * The studio's metrics, read from the database now, in Prometheus' text format (GET /api/metrics),
 * and this process's HTTP latency by route (kept in memory, server/observability/http-latency.ts).
 */
export async function renderStudioMetrics(store: Store): Promise<string> {
  const [depth, timings, usage, runnersOnline] = await Promise.all([
    countJobsByKindAndStatus(store.db),
    summariseFinishedJobTimings(store.db, TIMING_WINDOW_S, QUANTILES),
    sumJudgeUsageByModel(store.db),
    countRunnersSeenWithin(store.db, runnerOnlineWithinS()),
  ]);
  const count = (kind: string, status: string) => depth.find((d) => d.kind === kind && d.status === status)?.count ?? 0;
  const tokens = (type: string, of: (u: (typeof usage)[number]) => number) =>
    usage.map((u) => ({ labels: { model: u.model, type }, value: of(u) }));
  return renderExposition([
    {
      name: "rubric_jobs",
      help: "Jobs by kind and status now (queued is the queue depth).",
      type: "gauge",
      // Every pair, zeros included, so a series does not vanish when its last job moves on.
      samples: JOB_KINDS.flatMap((kind) =>
        JOB_STATUSES.map((status) => ({ labels: { kind, status }, value: count(kind, status) })),
      ),
    },
    timingSummary(
      "rubric_job_claim_wait_seconds",
      "Queued to first claimed, over the jobs that finished in the last hour.",
      timings,
      (t) => [t.waitSumS, t.waitQuantilesS],
    ),
    timingSummary(
      "rubric_job_duration_seconds",
      "First claimed to finished, over the jobs that finished in the last hour.",
      timings,
      (t) => [t.runSumS, t.runQuantilesS],
    ),
    {
      name: "rubric_judge_calls_total",
      help: "Judge model calls of the stored judge runs, by model.",
      type: "counter",
      samples: usage.map((u) => ({ labels: { model: u.model }, value: u.calls })),
    },
    {
      name: "rubric_judge_tokens_total",
      help: "Judge tokens of the stored judge runs, by model and type (cached_input is part of input, reasoning part of output).",
      type: "counter",
      samples: [
        ...tokens("input", (u) => u.inputTokens),
        ...tokens("cached_input", (u) => u.cachedInputTokens),
        ...tokens("output", (u) => u.outputTokens),
        ...tokens("reasoning", (u) => u.reasoningTokens),
      ],
    },
    {
      name: "rubric_runners_online",
      help: "Runners of live tokens heard from within a lease.",
      type: "gauge",
      samples: [{ value: runnersOnline }],
    },
    httpLatency().family(),
  ]);
}

/** A summary per job kind over the window: its quantiles, `_sum` and `_count` (window totals, not lifetime counters). */
function timingSummary(
  name: string,
  help: string,
  timings: JobTimingSummary[],
  of: (t: JobTimingSummary) => [sum: number, quantiles: number[]],
): MetricFamily {
  const samples: Sample[] = JOB_KINDS.flatMap((kind) => {
    const t = timings.find((x) => x.kind === kind);
    const [sum, quantiles] = t ? of(t) : [0, QUANTILES.map(() => NaN)];
    return [
      ...QUANTILES.map((q, i) => ({ labels: { kind, quantile: String(q) }, value: quantiles[i] })),
      { suffix: "_sum" as const, labels: { kind }, value: sum },
      { suffix: "_count" as const, labels: { kind }, value: t?.count ?? 0 },
    ];
  });
  return { name, help, type: "summary", samples };
}
