"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FlaskConical, Plus, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { fetchJson } from "@/components/api/client";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { BulkUploadStep } from "./bulk-upload-step";
import { EvaluationsTable, type EvaluationListItem } from "./evaluations-table";
import { IngestResultsForm } from "./ingest-results-form";
import { NewEvaluationForm, type CreatedEvaluation } from "./new-evaluation-form";

type Open = { kind: "new" } | { kind: "upload"; evaluation: CreatedEvaluation } | { kind: "ingest" } | null;

/** `/evaluations` (staff): the list, a new evaluation filled by bulk upload, and the ingest of PaperBench's graded results. */
export function EvaluationsPage({ splits }: { splits: Record<string, string[]> }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Open>(null);
  const list = useQuery({
    queryKey: ["evaluations"],
    queryFn: () => fetchJson<{ evaluations: EvaluationListItem[] }>("/api/evaluations").then((r) => r.evaluations),
  });
  const goTo = (id: string) => router.push(`/evaluations/${id}`);

  return (
    // Inside the layout's <main>: one main per page.
    <section className="space-y-4" data-testid="evaluations-page">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold text-zinc-900">Evaluations</h1>
        <span className="text-sm text-zinc-500">An agent × a split × N runs, from submissions to the leaderboard</span>
        <div className="ml-auto flex gap-2">
          <Button variant="secondary" onClick={() => setOpen({ kind: "ingest" })} data-testid="open-ingest">
            <Upload size={14} aria-hidden /> Ingest PaperBench results
          </Button>
          <Button onClick={() => setOpen({ kind: "new" })} data-testid="new-evaluation">
            <Plus size={14} aria-hidden /> New evaluation
          </Button>
        </div>
      </div>
      {list.error && <p className="text-sm text-red-700">{list.error.message}</p>}
      {list.data && list.data.length === 0 && (
        <div
          className="rounded-lg border border-dashed border-zinc-300 p-10 text-center text-sm text-zinc-600"
          data-testid="evaluations-empty"
        >
          <FlaskConical className="mx-auto mb-2 text-zinc-400" aria-hidden />
          No evaluations yet. Create one and fill it by bulk upload, or ingest PaperBench&apos;s graded results.
        </div>
      )}
      {list.data && list.data.length > 0 && <EvaluationsTable evaluations={list.data} />}

      {open?.kind === "new" && (
        <Dialog title="New evaluation" onClose={() => setOpen(null)} testId="new-evaluation-dialog" layout="sections">
          <NewEvaluationForm
            splits={splits}
            onCreated={(evaluation) => {
              // The list behind the next step shows the new evaluation at once.
              void refetchAfterChange(queryClient, ["evaluations"]);
              setOpen({ kind: "upload", evaluation });
            }}
            onCancel={() => setOpen(null)}
          />
        </Dialog>
      )}
      {open?.kind === "upload" && (
        <Dialog
          title={`Upload submissions: ${open.evaluation.name}`}
          description={`${open.evaluation.runs} run(s) × ${open.evaluation.paperIds.length || "any"} paper(s), ${open.evaluation.variant}`}
          onClose={() => goTo(open.evaluation.id)}
          testId="bulk-upload-dialog"
        >
          <BulkUploadStep
            evaluationId={open.evaluation.id}
            onDone={(answer) => {
              toast.success(
                `${answer.cells.length} submission(s) uploaded${answer.skipped.length ? `, ${answer.skipped.length} skipped` : ""}`,
              );
              goTo(answer.evaluationId);
            }}
            onSkip={() => goTo(open.evaluation.id)}
          />
        </Dialog>
      )}
      {open?.kind === "ingest" && (
        <Dialog title="Ingest PaperBench results" onClose={() => setOpen(null)} testId="ingest-dialog">
          <IngestResultsForm onDone={goTo} onCancel={() => setOpen(null)} />
        </Dialog>
      )}
    </section>
  );
}
