"use client";

import Link from "next/link";
import { CategoryChip } from "@/components/rubric-editor/categories";
import { LazyMarkdown } from "@/components/ui/lazy-markdown";
import { MathText } from "@/components/ui/math-text";
import type { ComparedLeaf, ComparedLeafSide } from "@/lib/grading/compare-gradings";
import { ScoreChip } from "./review-tree";

const STATUS_STYLE: Record<ComparedLeaf["status"], string> = {
  differs: "bg-amber-100 text-amber-900",
  "only-a": "bg-sky-100 text-sky-900",
  "only-b": "bg-sky-100 text-sky-900",
  same: "bg-emerald-50 text-emerald-800",
};

/** One leaf of a comparison: its requirement, and each side's score and explanation (or that the side lacks the leaf). */
export function CompareLeafRow({
  leaf,
  statusLabel,
  gradingA,
  gradingB,
}: {
  leaf: ComparedLeaf;
  statusLabel: string;
  gradingA: string;
  gradingB: string;
}) {
  return (
    <li
      className="rounded-lg border border-zinc-200 bg-white p-3"
      data-testid="compare-leaf"
      data-status={leaf.status}
      data-node-id={leaf.nodeId}
    >
      <div className="mb-2 flex flex-wrap items-start gap-2">
        <span
          className={`shrink-0 rounded px-1.5 py-0.5 text-[11px] font-semibold ${STATUS_STYLE[leaf.status]}`}
          data-testid="compare-status"
        >
          {statusLabel}
        </span>
        <CategoryChip category={leaf.taskCategory} />
        <p className="min-w-0 flex-1 text-sm text-zinc-900" data-testid="compare-requirements">
          <MathText text={leaf.requirements} />
        </p>
      </div>
      <div className="grid gap-2 md:grid-cols-2">
        <Side label="A" side={leaf.a} gradingId={gradingA} />
        <Side label="B" side={leaf.b} gradingId={gradingB} />
      </div>
    </li>
  );
}

function Side({ label, side, gradingId }: { label: string; side: ComparedLeafSide | null; gradingId: string }) {
  if (!side) {
    return (
      <div
        className="rounded-md border border-dashed border-zinc-300 px-2 py-1.5 text-xs text-zinc-500"
        data-testid={`compare-${label.toLowerCase()}`}
        data-missing
      >
        {label}: this grading&apos;s rubric has no such leaf.
      </div>
    );
  }
  return (
    <div
      className="min-w-0 rounded-md border border-zinc-200 bg-zinc-50 px-2 py-1.5"
      data-testid={`compare-${label.toLowerCase()}`}
    >
      <div className="flex items-center gap-1.5 text-xs text-zinc-500">
        <span className="font-mono font-semibold text-zinc-700">{label}</span>
        <ScoreChip
          score={side.score}
          verdict={side.verdictScore}
          leaf
          testId={`compare-score-${label.toLowerCase()}`}
        />
        {side.overridden && (
          <span className="rounded bg-amber-50 px-1 text-[10px] font-medium text-amber-800">overridden</span>
        )}
        {!side.valid && !side.overridden && (
          <span className="rounded bg-red-50 px-1 text-[10px] font-medium text-red-700">
            {side.verdictScore === null ? "not graded" : "invalid"}
          </span>
        )}
        <Link
          href={`/gradings/${gradingId}?leaf=${side.key}`}
          className="ml-auto font-medium text-indigo-700 hover:underline"
        >
          Review
        </Link>
      </div>
      <div className="mt-1 max-h-40 overflow-y-auto text-sm" data-testid={`compare-explanation-${label.toLowerCase()}`}>
        {side.explanation ? (
          <LazyMarkdown>{side.explanation}</LazyMarkdown>
        ) : (
          <p className="text-xs text-zinc-500">No explanation.</p>
        )}
      </div>
    </div>
  );
}
