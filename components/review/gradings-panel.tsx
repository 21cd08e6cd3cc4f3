"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchJson } from "@/components/api/client";
import type { Variant } from "@/lib/grading/variant";
import { GradingImportForm } from "./grading-import-form";

interface GradingRow {
  id: string;
  agentName: string;
  runIndex: number;
  variant: Variant;
  kind: "judge" | "human";
  judgeModel: string | null;
  score: number | null;
  leafCount: number;
  overrideCount: number;
  rubricVersionName: string;
}

/**
 * The paper's gradings with a link to each one's review page: staff and authors see all of them, a
 * grader the ones assigned to them.
 */
export function GradingsPanel({ paperId, role }: { paperId: string; role: "staff" | "author" | "grader" }) {
  const query = useQuery({
    queryKey: ["paper-gradings", paperId],
    queryFn: () => fetchJson<{ gradings: GradingRow[] }>(`/api/papers/${paperId}/gradings`).then((r) => r.gradings),
  });
  return (
    <section
      className="rounded-lg border border-zinc-200 bg-white p-5"
      data-testid="gradings-panel"
      aria-labelledby="gradings-heading"
    >
      <div className="mb-3 flex items-center gap-3">
        <h2 id="gradings-heading" className="text-lg font-semibold">
          Gradings
        </h2>
        {query.data && <span className="text-sm text-zinc-600">{query.data.length.toLocaleString("en")}</span>}
        {role === "grader" && <span className="text-xs text-zinc-500">the ones assigned to you</span>}
        <Link href="/reviews" className="ml-auto text-sm font-medium text-indigo-700 hover:underline">
          My reviews
        </Link>
      </div>
      {role === "staff" && <GradingImportForm paperId={paperId} />}
      {query.isPending && <p className="text-sm text-zinc-500">Loading…</p>}
      {query.isError && <p className="text-sm text-red-700">{query.error.message}</p>}
      {query.data?.length === 0 && (
        <p className="text-sm text-zinc-500">
          {role === "grader"
            ? "No grading of this paper is assigned to you."
            : role === "staff"
              ? "No gradings yet: import one above, or with npm run grading -- import."
              : "No gradings yet. Staff import them."}
        </p>
      )}
      {query.data && query.data.length > 0 && (
        <div className="max-h-80 overflow-y-auto">
          <table className="w-full text-sm">
            <thead className="sticky top-0 bg-white text-left text-[11px] uppercase tracking-wide text-zinc-500">
              <tr>
                <th className="py-1 font-semibold">Run</th>
                <th className="py-1 font-semibold">Grading</th>
                <th className="py-1 text-right font-semibold">Score</th>
                <th className="py-1 text-right font-semibold">Leaves</th>
                <th className="py-1 text-right font-semibold">Overrides</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {query.data.map((g) => (
                <tr key={g.id} className="border-t border-zinc-100" data-testid="grading-row" data-grading={g.id}>
                  <td className="py-1.5 pr-2 text-zinc-900">
                    {g.agentName} · run {g.runIndex}
                    {g.variant === "code-dev" && <span className="ml-1 text-xs text-sky-700">Code-Dev</span>}
                  </td>
                  <td className="py-1.5 pr-2 text-xs text-zinc-600">
                    {g.kind === "human" ? "human" : `judge${g.judgeModel ? ` · ${g.judgeModel}` : ""}`}
                  </td>
                  <td className="py-1.5 text-right font-mono text-xs tabular-nums">
                    {g.score === null ? "hidden" : `${(g.score * 100).toFixed(2)}%`}
                  </td>
                  <td className="py-1.5 text-right font-mono text-xs tabular-nums text-zinc-600">
                    {g.leafCount.toLocaleString("en")}
                  </td>
                  <td className="py-1.5 text-right font-mono text-xs tabular-nums text-zinc-600">{g.overrideCount}</td>
                  <td className="py-1.5 pl-3 text-right">
                    <Link
                      href={`/gradings/${g.id}`}
                      className="font-medium text-indigo-700 hover:underline"
                      data-testid="open-review"
                    >
                      {role === "author" ? "View" : "Review"}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
