"use client";

import { Bar, BarChart, CartesianGrid, ErrorBar, Tooltip, XAxis, YAxis } from "recharts";
import { formatMeanSe, formatPercent } from "@/lib/leaderboard/format";
import type { LeaderboardAgentRow } from "@/lib/leaderboard/types";

const BAR_COLOR = "#6366f1"; // indigo-500
const ERROR_COLOR = "#27272a"; // zinc-800

const LABEL_LINE = 28; // characters per line of an agent's label
const CHAR_PX = 6.6; // an average character at 12 px

function shortLine(text: string) {
  return text.length > LABEL_LINE ? `${text.slice(0, LABEL_LINE - 1).trimEnd()}…` : text;
}

/**
 * An agent's name on at most two lines, so the axis shows it whole: split at " · " (scaffold ·
 * model), else at the last space that fits; only a line still too long is shortened (the tooltip
 * has the whole name).
 */
function labelLines(name: string): string[] {
  if (name.length <= LABEL_LINE) return [name];
  const dot = name.lastIndexOf(" · ");
  const space = name.lastIndexOf(" ", LABEL_LINE);
  const [first, rest] =
    dot > 0
      ? [name.slice(0, dot), name.slice(dot + 3)]
      : space > 0
        ? [name.slice(0, space), name.slice(space + 1)]
        : [name, ""];
  return [shortLine(first), ...(rest ? [shortLine(rest)] : [])];
}

function AgentTick({ x, y, payload }: { x?: number | string; y?: number | string; payload?: { value: string } }) {
  const lines = labelLines(payload?.value ?? "");
  return (
    <text x={Number(x)} y={Number(y)} textAnchor="end" fontSize={12} fill="#3f3f46" data-testid="chart-agent-label">
      {lines.map((line, i) => (
        <tspan key={i} x={Number(x) - 4} dy={i === 0 ? `${0.35 - (lines.length - 1) * 0.6}em` : "1.2em"}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

/**
 * Mean score per ranked agent, with ± one standard error as error bars (none for a single run).
 * `digits`: the table's decimals, so the tooltip reads as the row does.
 */
export function LeaderboardChart({
  agents,
  digits,
}: {
  agents: Pick<LeaderboardAgentRow, "name" | "mean" | "stdErr" | "nRuns">[];
  digits: number;
}) {
  const data = agents.map((a) => ({
    name: a.name,
    mean: a.mean ?? 0,
    stdErr: a.stdErr ?? 0,
    text: formatMeanSe(a.mean, a.stdErr, digits),
    runs: a.nRuns,
  }));
  const max = Math.max(...data.map((d) => d.mean + d.stdErr), 0.05);
  const step = [0.05, 0.1, 0.2, 0.25].find((s) => Math.ceil(max / s - 1e-9) <= 5) ?? 0.25;
  const domainMax = Math.min(1, Math.ceil(max / step - 1e-9) * step);
  const ticks = Array.from({ length: Math.round(domainMax / step) + 1 }, (_, i) => Number((i * step).toFixed(4)));
  const lines = data.map((d) => labelLines(d.name));
  const twoLines = lines.some((l) => l.length > 1);
  const height = data.length * (twoLines ? 40 : 30) + 48;
  // The axis as wide as its longest line, so no label is clipped at the figure's edge.
  const axisWidth = Math.ceil(Math.max(...lines.flat().map((l) => l.length)) * CHAR_PX) + 12;
  return (
    <figure
      aria-label="Mean replication score per agent, with standard errors"
      className="rounded-lg border border-zinc-200 bg-white p-3"
      data-testid="leaderboard-chart"
    >
      <BarChart
        responsive
        style={{ width: "100%", height }}
        data={data}
        layout="vertical"
        margin={{ top: 4, right: 24, bottom: 0, left: 4 }}
        barCategoryGap="28%"
      >
        <CartesianGrid horizontal={false} stroke="#f4f4f5" />
        <XAxis
          type="number"
          domain={[0, domainMax]}
          ticks={ticks}
          tickFormatter={(x: number) => formatPercent(x, 0)}
          tick={{ fontSize: 11, fill: "#71717a" }}
          tickLine={false}
          axisLine={{ stroke: "#e4e4e7" }}
        />
        <YAxis
          type="category"
          dataKey="name"
          width={axisWidth}
          tick={<AgentTick />}
          tickLine={false}
          axisLine={{ stroke: "#e4e4e7" }}
          interval={0}
        />
        <Tooltip
          cursor={{ fill: "#eef2ff" }}
          content={({ active, payload }) => {
            const d = active ? (payload?.[0]?.payload as (typeof data)[number] | undefined) : undefined;
            if (!d) return null;
            return (
              <div className="rounded-md border border-zinc-200 bg-white px-2 py-1 text-xs shadow-sm">
                <div className="font-semibold text-zinc-900">{d.name}</div>
                <div className="tabular-nums text-zinc-700">
                  {d.text} · {d.runs} {d.runs === 1 ? "run" : "runs"}
                </div>
              </div>
            );
          }}
        />
        <Bar dataKey="mean" name="Mean score" fill={BAR_COLOR} radius={[0, 3, 3, 0]} isAnimationActive={false}>
          <ErrorBar
            dataKey="stdErr"
            direction="x"
            width={6}
            stroke={ERROR_COLOR}
            strokeWidth={1.25}
            isAnimationActive={false}
          />
        </Bar>
      </BarChart>
      <figcaption className="mt-1 text-xs text-zinc-500">
        Bars: mean over complete runs; whiskers: ± one standard error (none for a single run).
      </figcaption>
    </figure>
  );
}
