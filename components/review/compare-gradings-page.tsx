"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { fetchJson } from "@/components/api/client";
import type { ComparableGrading, ComparedLeafStatus, SubmissionComparison } from "@/lib/grading/compare-gradings";
import { CompareLeafRow } from "./compare-leaf-row";
import { scoreChipStyle } from "./score-style";

const STATUS_LABEL: Record<ComparedLeafStatus, string> = {
  differs: "Differ",
  "only-a": "Only in A",
  "only-b": "Only in B",
  same: "Agree",
};

export function gradingLabel(g: ComparableGrading): string {
  return `${g.kind === "human" ? "Human" : "Judge"} · ${g.how} · ${g.rubricVersionName} · ${new Date(g.createdAt).toLocaleDateString("en")}`;
}

/** Two gradings of one submission leaf by leaf, differences first, each with its score and explanation. */
export function CompareGradingsPage({
  submissionId,
  initialA,
  initialB,
}: {
  submissionId: string;
  initialA: string | null;
  initialB: string | null;
}) {
  const [pick, setPick] = useState({ a: initialA, b: initialB });
  const [showSame, setShowSame] = useState(false);
  const query = useQuery({
    queryKey: ["compare-gradings", submissionId, pick.a, pick.b],
    queryFn: () => {
      const params = new URLSearchParams();
      if (pick.a) params.set("a", pick.a);
      if (pick.b) params.set("b", pick.b);
      return fetchJson<SubmissionComparison>(`/api/submissions/${submissionId}/compare?${params}`);
    },
    placeholderData: (previous) => previous,
  });
  // A side not picked yet is the one the server chose by default; both go into the address.
  const shownA = query.data?.a?.id ?? null;
  const shownB = query.data?.b?.id ?? null;
  const choose = (side: "a" | "b", id: string) => setPick((p) => ({ a: p.a ?? shownA, b: p.b ?? shownB, [side]: id }));
  useEffect(() => {
    if (!pick.a && !pick.b) return;
    const url = new URL(window.location.href);
    if (pick.a) url.searchParams.set("a", pick.a);
    if (pick.b) url.searchParams.set("b", pick.b);
    window.history.replaceState(null, "", url);
  }, [pick]);

  const data = query.data;
  const result = data?.result ?? null;
  const leaves = result ? result.leaves.filter((l) => showSame || l.status !== "same") : [];
  return (
    <div className="space-y-4" data-testid="compare-page">
      <header className="flex flex-wrap items-center gap-3">
        <Link
          href={`/submissions/${submissionId}`}
          className="rounded-md p-1 text-zinc-500 hover:bg-zinc-200"
          aria-label="Back to the submission"
        >
          <ArrowLeft size={16} />
        </Link>
        <h1 className="text-lg font-semibold text-zinc-900">Compare gradings</h1>
        {query.isFetching && <span className="text-xs text-zinc-400">Loading…</span>}
      </header>
      {query.isError && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          data-testid="compare-error"
        >
          {query.error.message}
        </p>
      )}
      {data && (
        <div className="grid gap-3 md:grid-cols-2">
          {(["a", "b"] as const).map((side) => {
            const picked = data[side];
            const root = result ? (side === "a" ? result.rootA : result.rootB) : null;
            return (
              <section
                key={side}
                className="min-w-0 space-y-2 rounded-lg border border-zinc-200 bg-white p-3"
                data-testid={`compare-side-${side}`}
              >
                <div className="flex items-center gap-2">
                  <span className="rounded bg-zinc-800 px-1.5 font-mono text-xs font-semibold text-white">
                    {side.toUpperCase()}
                  </span>
                  <select
                    aria-label={`Grading ${side.toUpperCase()}`}
                    data-testid={`compare-pick-${side}`}
                    value={picked?.id ?? ""}
                    onChange={(e) => choose(side, e.target.value)}
                    className="h-8 min-w-0 flex-1 truncate rounded-md border border-zinc-300 bg-white px-1 text-sm"
                  >
                    {!picked && <option value="">—</option>}
                    {data.gradings.map((g) => (
                      <option key={g.id} value={g.id}>
                        {gradingLabel(g)}
                      </option>
                    ))}
                  </select>
                </div>
                {picked && (
                  <div className="flex items-center gap-2 text-sm">
                    <span className="text-xs text-zinc-500">Root score</span>
                    <span
                      className="rounded px-1.5 font-mono font-semibold tabular-nums"
                      style={scoreChipStyle(root)}
                      data-testid={`compare-root-${side}`}
                    >
                      {root === null ? "—" : `${(root * 100).toFixed(2)}%`}
                    </span>
                    <Link
                      href={`/gradings/${picked.id}`}
                      className="ml-auto text-xs font-medium text-indigo-700 hover:underline"
                    >
                      Open its review
                    </Link>
                  </div>
                )}
              </section>
            );
          })}
        </div>
      )}
      {data && !result && (
        <p
          className="rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-sm text-zinc-600"
          data-testid="compare-empty"
        >
          {data.gradings.length < 2
            ? `This submission has ${data.gradings.length === 0 ? "no grading" : "one grading"} you may read in full: a comparison needs two. Judge it again, or import another grading (a person's, or another judge's).`
            : "Pick two gradings."}
        </p>
      )}
      {result && (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="compare-counts">
            {(Object.keys(STATUS_LABEL) as ComparedLeafStatus[]).map((s) => (
              <span
                key={s}
                className="rounded-full border border-zinc-200 bg-white px-2 py-0.5 text-xs text-zinc-700"
                data-testid={`compare-count-${s}`}
              >
                {STATUS_LABEL[s]}: <span className="font-semibold tabular-nums">{result.counts[s]}</span>
              </span>
            ))}
            <label className="ml-auto flex items-center gap-1.5 text-xs text-zinc-600">
              <input
                type="checkbox"
                data-testid="compare-show-same"
                checked={showSame}
                onChange={(e) => setShowSame(e.target.checked)}
                className="accent-indigo-600"
              />
              Show the {result.counts.same} leaves that agree
            </label>
          </div>
          {leaves.length === 0 ? (
            <p
              className="rounded-lg border border-zinc-200 bg-white p-6 text-sm text-zinc-600"
              data-testid="compare-no-difference"
            >
              The two gradings agree on every leaf.
            </p>
          ) : (
            <ol className="space-y-2" data-testid="compare-leaves">
              {leaves.map((leaf) => (
                <CompareLeafRow
                  key={`${leaf.a?.key}:${leaf.b?.key}`}
                  leaf={leaf}
                  statusLabel={STATUS_LABEL[leaf.status]}
                  gradingA={data!.a!.id}
                  gradingB={data!.b!.id}
                />
              ))}
            </ol>
          )}
        </>
      )}
    </div>
  );
}
