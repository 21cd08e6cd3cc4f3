"use client";

import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { formatShare } from "@/lib/rubric/shares";
import { rubricSummary, type CategoryShare } from "@/lib/rubric/summary";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import { EmptyState, PanelFrame } from "./panel-ui";

const SCORE_COLOR = "#6366f1"; // indigo-500
const LEAVES_COLOR = "#fbbf24"; // amber-400

/**
 * The rubric at a glance: nodes, leaves, depth, and per task category and fine-grained category
 * the share of the final score next to the share of leaves (they differ a lot on real rubrics).
 */
export function SummaryPanel({ index, shares }: { index: TreeIndex; shares: Map<string, number> }) {
  const summary = useMemo(() => rubricSummary(index, shares), [index, shares]);

  return (
    <PanelFrame title="Summary" testId="summary-panel">
      {summary.nodes === 0 ? (
        <EmptyState>This rubric has no nodes yet.</EmptyState>
      ) : (
        <>
          <dl className="grid grid-cols-3 gap-2" data-testid="summary-stats">
            <Stat label="Nodes" value={summary.nodes} />
            <Stat label="Leaves" value={summary.leaves} />
            <Stat label="Depth" value={summary.depth} />
          </dl>
          <CategoryBreakdown id="summary-task" title="By task category" rows={summary.byTaskCategory} />
          <CategoryBreakdown id="summary-finegrained" title="By fine-grained category" rows={summary.byFinegrained} />
        </>
      )}
    </PanelFrame>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md border border-zinc-200 bg-white px-2.5 py-1.5">
      <dt className="text-[11px] font-medium uppercase tracking-wide text-zinc-500">{label}</dt>
      <dd className="text-base font-semibold tabular-nums text-zinc-900" data-stat={label.toLowerCase()}>
        {value.toLocaleString("en")}
      </dd>
    </div>
  );
}

const percentTick = (x: number) => (x === 0 ? "0%" : `${Math.round(x * 100)}%`);

function shortLabel(text: string, max = 22) {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** A category name on the chart's axis, cut to fit; the full name shows on hover and in the table. */
function CategoryTick(props: { x?: number | string; y?: number | string; payload?: { value?: unknown } }) {
  const label = String(props.payload?.value ?? "");
  return (
    <text x={Number(props.x ?? 0)} y={Number(props.y ?? 0)} dy={4} textAnchor="end" fontSize={11} fill="#52525b">
      <title>{label}</title>
      {shortLabel(label)}
    </text>
  );
}

function CategoryBreakdown({ id, title, rows }: { id: string; title: string; rows: CategoryShare[] }) {
  const max = rows.reduce((m, r) => Math.max(m, r.scoreShare, r.leafShare), 0);
  // An axis of at most 4 even steps, rounded up past the longest bar.
  const step = [0.05, 0.1, 0.2, 0.25].find((s) => Math.ceil(max / s - 1e-9) <= 4) ?? 0.25;
  const domainMax = Math.min(1, Math.max(step, Math.ceil(max / step - 1e-9) * step));
  const ticks = Array.from({ length: Math.round(domainMax / step) + 1 }, (_, i) => Number((i * step).toFixed(4)));
  const height = rows.length * 34 + 56;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2" data-testid={id}>
      <h3 id={`${id}-title`} className="text-xs font-semibold text-zinc-700">
        {title}
      </h3>
      <figure
        aria-label={`${title}: share of score and share of leaves`}
        className="rounded-md border border-zinc-200 bg-white p-2"
      >
        <BarChart
          responsive
          style={{ width: "100%", height }}
          data={rows}
          layout="vertical"
          margin={{ top: 4, right: 12, bottom: 0, left: 4 }}
          barGap={1}
          barCategoryGap="22%"
        >
          <CartesianGrid horizontal={false} stroke="#f4f4f5" />
          <XAxis
            type="number"
            domain={[0, domainMax]}
            ticks={ticks}
            tickFormatter={percentTick}
            tick={{ fontSize: 11, fill: "#71717a" }}
            tickLine={false}
            axisLine={{ stroke: "#e4e4e7" }}
          />
          <YAxis
            type="category"
            dataKey="category"
            width={150}
            tick={CategoryTick}
            tickLine={false}
            axisLine={{ stroke: "#e4e4e7" }}
            interval={0}
          />
          <Tooltip
            cursor={{ fill: "#eef2ff" }}
            formatter={(value) => (typeof value === "number" ? formatShare(value) : String(value))}
            contentStyle={{ fontSize: 12, borderRadius: 6, borderColor: "#e4e4e7", padding: "4px 8px" }}
            labelStyle={{ fontWeight: 600, color: "#18181b" }}
          />
          <Legend
            verticalAlign="bottom"
            iconType="square"
            iconSize={9}
            itemSorter={null}
            wrapperStyle={{ fontSize: 12, color: "#3f3f46", paddingTop: 4 }}
          />
          <Bar
            dataKey="scoreShare"
            name="Share of score"
            fill={SCORE_COLOR}
            radius={[0, 3, 3, 0]}
            isAnimationActive={false}
          />
          <Bar
            dataKey="leafShare"
            name="Share of leaves"
            fill={LEAVES_COLOR}
            radius={[0, 3, 3, 0]}
            isAnimationActive={false}
          />
        </BarChart>
      </figure>
      <table className="w-full table-fixed border-collapse text-xs" data-testid={`${id}-table`}>
        <caption className="sr-only">{title}: leaves, share of leaves and share of the final score</caption>
        <thead>
          <tr className="border-b border-zinc-200 text-left text-[11px] text-zinc-500">
            <th scope="col" className="py-1 pr-2 font-medium">
              Category
            </th>
            <th scope="col" className="w-12 py-1 pr-2 text-right font-medium">
              Leaves
            </th>
            <th scope="col" className="w-[4.75rem] py-1 pr-2 text-right font-medium">
              <span className="inline-flex items-center gap-1">
                <span className="size-2 rounded-sm" style={{ background: LEAVES_COLOR }} aria-hidden />
                of leaves
              </span>
            </th>
            <th scope="col" className="w-[4.5rem] py-1 text-right font-medium">
              <span className="inline-flex items-center gap-1">
                <span className="size-2 rounded-sm" style={{ background: SCORE_COLOR }} aria-hidden />
                of score
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.category} className="border-b border-zinc-100 last:border-0">
              <th scope="row" className="truncate py-1 pr-2 text-left font-normal text-zinc-800" title={r.category}>
                {r.category}
              </th>
              <td className="py-1 pr-2 text-right tabular-nums text-zinc-600">{r.leaves.toLocaleString("en")}</td>
              <td className="py-1 pr-2 text-right tabular-nums text-zinc-600">{formatShare(r.leafShare)}</td>
              <td className="py-1 text-right font-medium tabular-nums text-zinc-900">{formatShare(r.scoreShare)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
