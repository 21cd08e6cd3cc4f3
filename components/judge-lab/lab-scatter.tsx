"use client";

import { CartesianGrid, Legend, ReferenceLine, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from "recharts";
import type { LabGroupView } from "@/lib/judge/lab/types";
import { PAPERBENCH_JUDGE_EVAL_SOURCE, PAPERBENCH_PUBLISHED_JUDGES } from "@/lib/judge/published-results";
import { f2, usd } from "./format";

/** A log axis cannot show $0 (the Dummy and Random judges): they are drawn at this floor, and say so. */
const COST_FLOOR = 0.01;

interface Point {
  name: string;
  cost: number;
  f1: number;
  note: string;
}

/**
 * F1 against cost per paper (log x): this lab's configurations beside PaperBench's published
 * JudgeEval figures, drawn apart and named as published; random's F1 as a line (it has no cost).
 */
export function LabScatter({ groups }: { groups: LabGroupView[] }) {
  const measured: Point[] = groups
    .filter((g) => g.overall.num_samples > 0 && g.costPerPaperUsd !== null)
    .map((g) => ({
      name: g.configName,
      cost: Math.max(COST_FLOOR, g.costPerPaperUsd!),
      f1: g.overall.f1,
      note:
        g.costPerPaperUsd! < COST_FLOOR
          ? `${usd(g.costPerPaperUsd)} a paper (drawn at $0.01)`
          : `${usd(g.costPerPaperUsd)} a paper · measured here`,
    }));
  const published: Point[] = PAPERBENCH_PUBLISHED_JUDGES.filter((r) => r.costPerPaperUsd !== null).map((r) => ({
    name: `${r.judge} (published)`,
    cost: r.costPerPaperUsd!,
    f1: r.f1,
    note: `${usd(r.costPerPaperUsd)} a paper · PaperBench's published figure`,
  }));
  const random = PAPERBENCH_PUBLISHED_JUDGES.find((r) => r.costPerPaperUsd === null);
  return (
    <figure
      className="rounded-lg border border-zinc-200 bg-white p-3"
      aria-label="F1 against cost per paper"
      data-testid="judge-lab-scatter"
    >
      <ScatterChart
        responsive
        style={{ width: "100%", height: 320 }}
        margin={{ top: 8, right: 24, bottom: 16, left: 4 }}
      >
        <CartesianGrid stroke="#f4f4f5" />
        <XAxis
          type="number"
          dataKey="cost"
          name="Cost per paper"
          scale="log"
          domain={[COST_FLOOR, 1000]}
          ticks={[0.01, 0.1, 1, 10, 100, 1000]}
          tickFormatter={(x: number) => `$${x}`}
          tick={{ fontSize: 11, fill: "#71717a" }}
          allowDataOverflow
        />
        <YAxis type="number" dataKey="f1" name="F1" domain={[0, 1]} tick={{ fontSize: 11, fill: "#71717a" }} />
        <ZAxis range={[70, 70]} />
        {random && (
          <ReferenceLine
            y={random.f1}
            stroke="#a1a1aa"
            strokeDasharray="4 4"
            label={{
              value: `random ${f2(random.f1)} (published)`,
              fontSize: 11,
              fill: "#71717a",
              position: "insideBottomRight",
            }}
          />
        )}
        <Tooltip
          content={({ active, payload }) => {
            const d = active ? (payload?.[0]?.payload as Point | undefined) : undefined;
            if (!d) return null;
            return (
              <div className="rounded-md border border-zinc-200 bg-white px-2 py-1 text-xs shadow-sm">
                <div className="font-semibold text-zinc-900">{d.name}</div>
                <div className="tabular-nums text-zinc-700">
                  F1 {f2(d.f1)} · {d.note}
                </div>
              </div>
            );
          }}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Scatter name="This lab" data={measured} fill="#6366f1" />
        <Scatter name="PaperBench, published" data={published} fill="#ffffff" stroke="#71717a" shape="diamond" />
      </ScatterChart>
      <figcaption className="mt-1 text-xs text-zinc-500">
        Published figures: {PAPERBENCH_JUDGE_EVAL_SOURCE.authors}, “{PAPERBENCH_JUDGE_EVAL_SOURCE.title}” (
        {PAPERBENCH_JUDGE_EVAL_SOURCE.year}),{" "}
        <a className="underline" href={PAPERBENCH_JUDGE_EVAL_SOURCE.url}>
          {PAPERBENCH_JUDGE_EVAL_SOURCE.url}
        </a>
        : measured on PaperBench&apos;s JudgeEval set, not by this studio.
      </figcaption>
    </figure>
  );
}
