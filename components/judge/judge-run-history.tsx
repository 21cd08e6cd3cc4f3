"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { fetchJson } from "@/components/api/client";
import type { JudgeConfigHistory, JudgeRunPoint } from "@/lib/judge/run-history";
import { formatSeconds, formatTokens, formatUsd } from "./format";

/**
 * What a chart can show of each run: its value, how it reads, and the axis' top when every run
 * is 0 (a placeholder judge costs nothing and invalidates nothing: a flat line at the bottom, not
 * an axis of made-up steps).
 */
const METRICS = {
  cost: { label: "Cost", value: (p: JudgeRunPoint) => p.costUsd, format: formatUsd, zeroTop: 1, integers: false },
  tokens: {
    label: "Tokens",
    value: (p: JudgeRunPoint) => p.tokens,
    format: formatTokens,
    zeroTop: 1000,
    integers: true,
  },
  latency: {
    label: "Latency",
    value: (p: JudgeRunPoint) => p.latencyS,
    format: formatSeconds,
    zeroTop: 60,
    integers: false,
  },
  invalid: {
    label: "Invalid leaves",
    value: (p: JudgeRunPoint) => p.invalidRate,
    format: formatRate,
    zeroTop: 0.1,
    integers: false,
  },
} as const;
type Metric = keyof typeof METRICS;

function formatRate(rate: number): string {
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 2 : 1)}%`;
}

const day = (iso: string) => iso.slice(0, 10);
const time = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace("T", " ");

/**
 * `/judge`'s "Judge runs over time" (as Langfuse charts traces): per configuration, a chart of its
 * finished runs, oldest to newest, by cost, tokens, latency or invalid-leaf rate (one choice for
 * every chart), with its totals. Empty until a run finishes.
 */
export function JudgeRunHistory() {
  const history = useQuery({
    queryKey: ["judge-history"],
    queryFn: () => fetchJson<{ configs: JudgeConfigHistory[]; limit: number }>("/api/judge/history"),
  });
  const [metric, setMetric] = useState<Metric>("cost");
  const configs = history.data?.configs;
  return (
    <section className="space-y-3" data-testid="judge-history" aria-labelledby="judge-history-title">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="judge-history-title" className="text-base font-semibold text-zinc-900">
          Judge runs over time
        </h2>
        <div
          role="group"
          aria-label="What the charts show"
          className="inline-flex overflow-hidden rounded-md border border-zinc-300 text-sm"
        >
          {(Object.keys(METRICS) as Metric[]).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={m === metric}
              onClick={() => setMetric(m)}
              className={`px-2.5 py-1 font-medium ${m === metric ? "bg-indigo-600 text-white" : "bg-white text-zinc-700 hover:bg-zinc-50"}`}
              data-testid={`judge-history-metric-${m}`}
            >
              {METRICS[m].label}
            </button>
          ))}
        </div>
        {history.data && (
          <span className="text-xs text-zinc-500">
            the latest {history.data.limit.toLocaleString("en")} finished runs at most
          </span>
        )}
      </div>
      {history.isError && <p className="text-sm text-red-700">{history.error.message}</p>}
      {configs && configs.length === 0 && (
        <p
          className="rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600"
          data-testid="judge-history-empty"
        >
          No judge run has finished yet. Run the judge on a submission (its page, or a paper&apos;s submissions) and
          each configuration&apos;s cost, tokens, latency and invalid leaves show here, run by run.
        </p>
      )}
      {configs && configs.length > 0 && (
        <div className="grid gap-3 lg:grid-cols-2">
          {configs.map((c) => (
            <ConfigHistory key={c.key} config={c} metric={metric} />
          ))}
        </div>
      )}
    </section>
  );
}

function ConfigHistory({ config, metric }: { config: JudgeConfigHistory; metric: Metric }) {
  const { label, value, format, zeroTop, integers } = METRICS[metric];
  const data = config.runs.map((p, i) => ({ n: i + 1, at: p.finishedAt, y: value(p) }));
  const t = config.totals;
  return (
    <figure
      className="min-w-0 rounded-lg border border-zinc-200 bg-white p-3"
      data-testid="judge-history-config"
      data-name={config.name}
    >
      <figcaption className="mb-2 flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
        <span className="font-medium text-zinc-900">{config.name}</span>
        <span className="font-mono text-xs text-zinc-500">{config.model}</span>
        <span
          className="ml-auto flex flex-wrap gap-x-3 text-xs tabular-nums text-zinc-600"
          data-testid="judge-history-totals"
        >
          <span>
            {t.runs} {t.runs === 1 ? "run" : "runs"}
          </span>
          <span>{formatUsd(t.costUsd)}</span>
          <span>{formatTokens(t.tokens)} tokens</span>
          <span>{t.meanLatencyS === null ? "—" : `${formatSeconds(t.meanLatencyS)} mean`}</span>
          <span>{t.invalidRate === null ? "—" : `${formatRate(t.invalidRate)} invalid`}</span>
        </span>
      </figcaption>
      <LineChart
        responsive
        style={{ width: "100%", height: 160 }}
        data={data}
        margin={{ top: 6, right: 12, bottom: 0, left: 0 }}
        aria-label={`${label} per run of ${config.name}`}
      >
        <CartesianGrid stroke="#f4f4f5" vertical={false} />
        <XAxis
          dataKey="n"
          tick={{ fontSize: 11, fill: "#71717a" }}
          tickLine={false}
          axisLine={{ stroke: "#e4e4e7" }}
          allowDecimals={false}
        />
        <YAxis
          width={64}
          domain={[0, (top: number) => (top > 0 ? top : zeroTop)]}
          tick={{ fontSize: 11, fill: "#71717a" }}
          tickLine={false}
          axisLine={false}
          tickFormatter={(v: number) => format(v)}
          allowDecimals={!integers}
        />
        <Tooltip
          content={({ active, payload }) => {
            const d = active ? (payload?.[0]?.payload as (typeof data)[number] | undefined) : undefined;
            if (!d) return null;
            return (
              <div className="rounded-md border border-zinc-200 bg-white px-2 py-1 text-xs shadow-sm">
                <div className="text-zinc-500">
                  run {d.n} · {time(d.at)}
                </div>
                <div className="font-medium tabular-nums text-zinc-900">
                  {label}: {d.y === null ? "—" : format(d.y)}
                </div>
              </div>
            );
          }}
        />
        <Line
          dataKey="y"
          name={label}
          stroke="#6366f1"
          strokeWidth={1.5}
          dot={{ r: 2.5 }}
          isAnimationActive={false}
          connectNulls
        />
      </LineChart>
      <p className="mt-1 text-xs text-zinc-500">
        Runs in the order they finished
        {config.runs.length > 0 &&
          `, ${day(config.runs[0].finishedAt)} to ${day(config.runs[config.runs.length - 1].finishedAt)}`}
        .
      </p>
    </figure>
  );
}
