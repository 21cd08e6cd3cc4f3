"use client";

import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useMemo, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { fetchJson, jsonInit } from "@/components/api/client";
import type { JudgeEvalCandidate, JudgeEvalStudioReport } from "@/lib/judge/eval/types";
import { JudgeEvalReportView } from "./judge-eval-report";

interface Filters {
  paper: string;
  agent: string;
  variant: string;
  judgeModel: string;
}

const ALL = "";

/**
 * JudgeEval over any set of submissions: the submissions that have a human truth and a judge
 * grading, filters and a checkbox each; the report of the chosen set (every one at first), and its
 * PaperBench `results.json`.
 */
export function JudgeEvalWorkbench({ paperId }: { paperId?: string }) {
  const candidates = useQuery({
    queryKey: ["judge-eval-candidates", paperId ?? null],
    queryFn: () =>
      fetchJson<{ candidates: JudgeEvalCandidate[] }>(
        `/api/judge-eval${paperId ? `?paper=${encodeURIComponent(paperId)}` : ""}`,
      ),
  });
  const list = useMemo(() => candidates.data?.candidates ?? [], [candidates.data]);
  const [filters, setFilters] = useState<Filters>({ paper: ALL, agent: ALL, variant: ALL, judgeModel: ALL });
  // Unchecked submissions (everything is chosen at first).
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  const [applied, setApplied] = useState<string[] | null>(null);

  const visible = list.filter(
    (c) =>
      (filters.paper === ALL || c.paperId === filters.paper) &&
      (filters.agent === ALL || c.agentName === filters.agent) &&
      (filters.variant === ALL || c.variant === filters.variant) &&
      (filters.judgeModel === ALL || (c.judgeModel ?? "unknown") === filters.judgeModel),
  );
  const chosen = visible.filter((c) => !unchecked.has(c.submissionId)).map((c) => c.submissionId);
  const evaluated = applied ?? list.map((c) => c.submissionId);

  const report = useQuery({
    queryKey: ["judge-eval-report", evaluated],
    queryFn: () => fetchJson<JudgeEvalStudioReport>("/api/judge-eval", jsonInit("POST", { submissionIds: evaluated })),
    enabled: candidates.isSuccess && evaluated.length > 0,
    staleTime: 60_000,
  });

  const options = (pick: (c: JudgeEvalCandidate) => string) => [...new Set(list.map(pick))].sort();
  const setCheck = (ids: string[], on: boolean) =>
    setUnchecked((prev) => {
      const next = new Set(prev);
      for (const id of ids) {
        if (on) next.delete(id);
        else next.add(id);
      }
      return next;
    });

  async function download() {
    const res = await fetch("/api/judge-eval/results", jsonInit("POST", { submissionIds: evaluated }));
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      toast.error(body?.error?.message ?? `Export failed (${res.status})`);
      return;
    }
    const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "results.json";
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  if (candidates.isPending) return <p className="text-sm text-zinc-500">Loading submissions…</p>;
  if (candidates.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        {candidates.error.message}
      </p>
    );
  if (list.length === 0) {
    return (
      <div
        className="rounded-lg border border-dashed border-zinc-300 bg-white p-10 text-center text-zinc-600"
        data-testid="judge-eval-empty"
      >
        No submission {paperId ? "of this paper " : ""}has both a human grading (an imported one, or a review that
        covered every leaf) and a judge grading yet.
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <section className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="judge-eval-selection">
        <div className="flex flex-wrap items-end gap-3">
          {!paperId && (
            <FilterSelect
              label="Paper"
              value={filters.paper}
              options={options((c) => c.paperId)}
              onChange={(paper) => setFilters({ ...filters, paper })}
            />
          )}
          <FilterSelect
            label="Agent"
            value={filters.agent}
            options={options((c) => c.agentName)}
            onChange={(agent) => setFilters({ ...filters, agent })}
          />
          <FilterSelect
            label="Variant"
            value={filters.variant}
            options={options((c) => c.variant)}
            onChange={(variant) => setFilters({ ...filters, variant })}
          />
          <FilterSelect
            label="Judge model"
            value={filters.judgeModel}
            options={options((c) => c.judgeModel ?? "unknown")}
            onChange={(judgeModel) => setFilters({ ...filters, judgeModel })}
          />
          <div className="ml-auto flex items-center gap-2">
            <Button
              variant="secondary"
              onClick={() =>
                setCheck(
                  visible.map((c) => c.submissionId),
                  true,
                )
              }
            >
              Check all
            </Button>
            <Button
              variant="secondary"
              onClick={() =>
                setCheck(
                  visible.map((c) => c.submissionId),
                  false,
                )
              }
            >
              Uncheck all
            </Button>
            <Button disabled={chosen.length === 0} onClick={() => setApplied(chosen)} data-testid="judge-eval-apply">
              Evaluate {chosen.length} {chosen.length === 1 ? "submission" : "submissions"}
            </Button>
          </div>
        </div>
        <div className="mt-3 max-h-64 overflow-y-auto rounded border border-zinc-100">
          <table className="w-full text-sm">
            <thead className="sticky top-0 bg-zinc-50 text-left text-xs uppercase tracking-wide text-zinc-500">
              <tr>
                <th className="w-8 px-2 py-1.5" />
                <th className="px-2 py-1.5">Paper</th>
                <th className="px-2 py-1.5">Agent</th>
                <th className="px-2 py-1.5 text-right">Run</th>
                <th className="px-2 py-1.5">Variant</th>
                <th className="px-2 py-1.5">Human truth</th>
                <th className="px-2 py-1.5">Judge</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {visible.map((c) => (
                <tr key={c.submissionId} data-testid="judge-eval-candidate">
                  <td className="px-2 py-1">
                    <input
                      type="checkbox"
                      aria-label={`${c.paperId} ${c.agentName} run ${c.runIndex}`}
                      checked={!unchecked.has(c.submissionId)}
                      onChange={(e) => setCheck([c.submissionId], e.target.checked)}
                    />
                  </td>
                  <td className="px-2 py-1 font-mono text-xs">{c.paperId}</td>
                  <td className="px-2 py-1">{c.agentName}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{c.runIndex}</td>
                  <td className="px-2 py-1 text-xs">{c.variant === "code-dev" ? "Code-Dev" : "full"}</td>
                  <td className="px-2 py-1 text-xs">{c.truth === "review" ? "complete review" : "human grading"}</td>
                  <td className="px-2 py-1 font-mono text-xs">{c.judgeModel ?? c.judgeType ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <div className="flex items-center gap-3">
        <h2 className="text-lg font-semibold">
          Pooled over {evaluated.length} {evaluated.length === 1 ? "submission" : "submissions"}
        </h2>
        <Button
          variant="secondary"
          className="ml-auto"
          onClick={download}
          disabled={!report.isSuccess}
          data-testid="judge-eval-download"
        >
          <Download className="h-4 w-4" aria-hidden />
          results.json
        </Button>
      </div>
      {report.isPending ? (
        <p className="text-sm text-zinc-500">Evaluating…</p>
      ) : report.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {report.error.message}
        </p>
      ) : (
        <JudgeEvalReportView report={report.data} />
      )}
    </div>
  );
}

function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: string[];
  onChange: (v: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-xs text-zinc-600">
      {label}
      <select
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900"
      >
        <option value={ALL}>All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
