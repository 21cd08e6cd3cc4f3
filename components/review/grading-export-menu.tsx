"use client";

import { Download } from "lucide-react";

/** Downloads of the grading with the human-adjusted scores (only for someone who sees every verdict). */
export function GradingExportMenu({ gradingId }: { gradingId: string }) {
  const href = (format: string) => `/api/gradings/${gradingId}/export?format=${format}`;
  return (
    <details className="relative text-sm" data-testid="grading-export">
      <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-3 py-1.5 font-medium text-zinc-800 hover:bg-zinc-50">
        <Download size={15} aria-hidden /> Export
      </summary>
      <ul className="absolute right-0 z-30 mt-1 w-64 rounded-lg border border-zinc-200 bg-white py-1 shadow-lg">
        {(
          [
            ["json", "Graded tree (PaperBench JSON)"],
            ["judge_output", "Judge output (grader_output.json)"],
            ["csv", "Leaves as CSV"],
          ] as const
        ).map(([format, label]) => (
          <li key={format}>
            <a
              href={href(format)}
              download
              className="block px-3 py-1.5 hover:bg-zinc-50"
              data-testid={`grading-export-${format}`}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
