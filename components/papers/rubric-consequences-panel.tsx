"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { toast } from "sonner";
import { fetchJson, jsonInit } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import type { GradingConsequence, RegradeResult, RubricConsequences } from "@/lib/grading/rubric-consequences";

const pct = (score: number) => `${(score * 100).toFixed(2)}%`;

/**
 * After the rubric changed: the gradings whose score moves, by how much (weights: at once; changed
 * or added leaves: the range until they are graded), and for staff one action that re-grades only
 * the affected leaves. Shown to those who change the rubric; nothing when no grading moves.
 */
export function RubricConsequencesPanel({ paperId, canRegrade }: { paperId: string; canRegrade: boolean }) {
  const queryClient = useQueryClient();
  const queryKey = ["rubric-consequences", paperId];
  const consequences = useQuery({
    queryKey,
    queryFn: () => fetchJson<RubricConsequences>(`/api/papers/${paperId}/rubric/consequences`),
    // While a judge run of a listed grading goes on, look again until it ends.
    refetchInterval: (q) => (q.state.data?.gradings.some((g) => g.busy) ? 3_000 : false),
  });
  const regrade = useMutation({
    mutationFn: (gradingIds: string[]) =>
      fetchJson<{ results: RegradeResult[] }>(
        `/api/papers/${paperId}/rubric/consequences`,
        jsonInit("POST", { gradingIds }),
      ).then((r) => r.results),
    onSuccess: (results) => {
      const judging = results.filter((r) => r.outcome === "judging").length;
      const review = results.filter((r) => r.outcome === "review").length;
      toast.success(
        `${results.length} grading${results.length === 1 ? "" : "s"} re-pinned: ${judging} judging their affected leaves, ${review} waiting for review`,
      );
      void refetchAfterChange(queryClient, ["paper-gradings", paperId]);
      void refetchAfterChange(queryClient, ["paper-submissions", paperId]);
      return refetchAfterChange(queryClient, queryKey);
    },
    onError: (err) => toast.error(err.message),
  });

  const gradings = consequences.data?.gradings ?? [];
  if (gradings.length === 0) return null;
  const ready = gradings.filter((g) => !g.busy).map((g) => g.gradingId);
  return (
    <section
      className="rounded-lg border border-amber-300 bg-amber-50 p-5"
      data-testid="rubric-consequences"
      aria-labelledby="rubric-consequences-title"
    >
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <h2
          id="rubric-consequences-title"
          className="flex-1 text-sm font-semibold uppercase tracking-wide text-amber-900"
        >
          The rubric changed: {gradings.length} grading{gradings.length === 1 ? "" : "s"} move
        </h2>
        {canRegrade && (
          <Button
            onClick={() => regrade.mutate(ready)}
            disabled={regrade.isPending || ready.length === 0}
            data-testid="regrade-affected"
          >
            {regrade.isPending ? "Re-grading…" : "Re-grade affected leaves"}
          </Button>
        )}
      </div>
      <table className="w-full text-sm">
        <thead className="text-left text-xs text-zinc-500">
          <tr>
            <th className="py-1 font-medium">Run</th>
            <th className="py-1 font-medium">Leaves</th>
            <th className="py-1 text-right font-medium">Score now</th>
            <th className="py-1 text-right font-medium">Under the live rubric</th>
          </tr>
        </thead>
        <tbody>
          {gradings.map((g) => (
            <ConsequenceRow key={g.gradingId} g={g} />
          ))}
        </tbody>
      </table>
      <p className="mt-3 text-xs text-zinc-600">
        Weights and places recompute from the verdicts that stand; changed and added leaves are judged again (judge
        gradings) or wait for review (human ones); every kept verdict still names the rubric revision it was made
        against.
      </p>
    </section>
  );
}

function ConsequenceRow({ g }: { g: GradingConsequence }) {
  const parts = [
    g.counts.reweighted > 0 && `${g.counts.reweighted} reweighted`,
    g.counts.changed > 0 && `${g.counts.changed} changed`,
    g.counts.added > 0 && `${g.counts.added} added`,
    g.counts.removed > 0 && `${g.counts.removed} removed`,
  ].filter(Boolean);
  return (
    <tr className="border-t border-amber-200" data-testid="rubric-consequence">
      <td className="py-1.5">
        <Link className="text-indigo-700 hover:underline" href={`/gradings/${g.gradingId}`}>
          {g.agentName} · run {g.runIndex}
        </Link>
        <span className="ml-1 text-xs text-zinc-500">
          {g.kind} · {g.variant} · rev {g.rubricRevision}
        </span>
      </td>
      <td className="py-1.5 text-xs text-zinc-700">{parts.join(", ")}</td>
      <td className="py-1.5 text-right font-mono text-xs tabular-nums">{pct(g.score)}</td>
      <td className="py-1.5 text-right font-mono text-xs tabular-nums" data-testid="rubric-consequence-new">
        {g.busy
          ? "being judged…"
          : g.newScore !== null
            ? `${pct(g.newScore)} (${g.newScore >= g.score ? "+" : ""}${((g.newScore - g.score) * 100).toFixed(2)})`
            : `needs re-grade of ${g.leavesToGrade} lea${g.leavesToGrade === 1 ? "f" : "ves"}: ${pct(g.minScore)}–${pct(g.maxScore)}`}
      </td>
    </tr>
  );
}
