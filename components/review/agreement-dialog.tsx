"use client";

import { useQuery } from "@tanstack/react-query";
import { Scale } from "lucide-react";
import { useState } from "react";
import { fetchJson } from "@/components/api/client";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import {
  VERDICT_RATER,
  type AgreementStats,
  type GradingAgreement,
  type RaterPairAgreement,
} from "@/lib/review/rater-agreement";
import { TASK_CATEGORIES } from "@/lib/rubric/types";

/** The header's Agreement button and its dialog. */
export function AgreementButton({ gradingId }: { gradingId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => setOpen(true)}
        data-testid="agreement-button"
        aria-label="Agreement"
        title="Agreement between graders, and of the verdicts with each grader"
      >
        <Scale size={15} aria-hidden />
        {/* Icon only on narrower screens, as Compare. */}
        <span className="hidden xl:inline">Agreement</span>
      </Button>
      {open && <AgreementDialog gradingId={gradingId} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * Agreement on this grading's leaves, Cohen's κ and F1 overall and per task category: between two
 * graders who reviewed the same leaves, beside the verdicts against each grader.
 */
function AgreementDialog({ gradingId, onClose }: { gradingId: string; onClose(): void }) {
  const query = useQuery({
    queryKey: ["grading-agreement", gradingId],
    queryFn: () => fetchJson<GradingAgreement>(`/api/gradings/${gradingId}/agreement`),
  });
  const data = query.data;
  const labelOf = (id: string) => data?.raters.find((r) => r.id === id)?.label ?? id;
  const people = data?.raters.filter((r) => r.kind === "person") ?? [];
  const between = data?.pairs.filter((p) => p.a !== VERDICT_RATER) ?? [];
  const withVerdicts = data?.pairs.filter((p) => p.a === VERDICT_RATER) ?? [];
  const verdictLabel = data ? labelOf(VERDICT_RATER) : "Judge";
  return (
    <Dialog
      onClose={onClose}
      title="Agreement"
      testId="agreement-dialog"
      className="max-w-4xl"
      description="Cohen's κ and F1 on the leaves both sides scored (a score of 0.5 or more counts as 1); n: leaves compared."
    >
      {query.isPending && <div className="h-24 animate-pulse rounded bg-zinc-100" />}
      {query.isError && <p className="text-sm text-red-700">{query.error.message}</p>}
      {data && (
        <div className="space-y-5">
          <section data-testid="agreement-graders">
            <h3 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-zinc-500">Between graders</h3>
            {between.length === 0 ? (
              <p
                className="rounded-md border border-dashed border-zinc-300 p-3 text-sm text-zinc-600"
                data-testid="agreement-empty"
              >
                {people.length === 0
                  ? "Nobody has reviewed this grading yet."
                  : people.length === 1
                    ? `Only ${people[0].label} has reviewed this grading: agreement between graders needs two people who review the same leaves (assign a second grader under Graders).`
                    : "No two graders have reviewed the same leaf yet."}
              </p>
            ) : (
              <PairTable pairs={between} labelOf={labelOf} />
            )}
          </section>
          <section data-testid="agreement-verdicts">
            <h3 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-zinc-500">
              {verdictLabel} and each grader
            </h3>
            {withVerdicts.length === 0 ? (
              <p className="text-sm text-zinc-600">No grader has scored a leaf with a valid verdict yet.</p>
            ) : (
              <PairTable pairs={withVerdicts} labelOf={labelOf} />
            )}
          </section>
        </div>
      )}
    </Dialog>
  );
}

function PairTable({ pairs, labelOf }: { pairs: RaterPairAgreement[]; labelOf(id: string): string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed text-sm">
        <thead className="text-left text-[11px] uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="w-44 py-1 pr-3 font-semibold">Pair</th>
            <th className="py-1 pr-3 font-semibold">All leaves</th>
            {TASK_CATEGORIES.map((c) => (
              <th key={c} className="py-1 pr-3 font-semibold">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {pairs.map((p) => (
            <tr
              key={`${p.a}:${p.b}`}
              className="border-t border-zinc-100 align-top"
              data-testid="agreement-row"
              data-pair={`${labelOf(p.a)} · ${labelOf(p.b)}`}
            >
              <td className="py-1.5 pr-3 font-medium text-zinc-800">
                {labelOf(p.a)} · {labelOf(p.b)}
              </td>
              <StatsCell stats={p.overall} testId="agreement-overall" />
              {TASK_CATEGORIES.map((c) => (
                <StatsCell key={c} stats={p.byCategory[c]} testId={`agreement-${c.toLowerCase().replace(/ /g, "-")}`} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StatsCell({ stats, testId }: { stats: AgreementStats | undefined; testId: string }) {
  if (!stats) {
    return (
      <td className="py-1.5 pr-3 text-zinc-400" data-testid={testId}>
        —
      </td>
    );
  }
  return (
    <td className="py-1.5 pr-3 font-mono text-xs tabular-nums text-zinc-800" data-testid={testId}>
      <div>
        κ <span data-testid="kappa">{stats.kappa === null ? "—" : stats.kappa.toFixed(2)}</span> · F1{" "}
        <span data-testid="f1">{stats.f1.toFixed(2)}</span>
      </div>
      <div className="text-[11px] text-zinc-500">
        n {stats.leaves} · agree {stats.agreed}
      </div>
    </td>
  );
}
