"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Upload } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { refetchAfterChange } from "@/components/api/refetch-after-change";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { BulkUploadStep, type BulkUploadAnswer, type UploadCell } from "./bulk-upload-step";
import { evaluationMatrixKey } from "./evaluation-query";

type Open = { kind: "bulk" } | { kind: "cell"; cell: UploadCell } | null;

const selectClass = "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm";

/**
 * The evaluation page's own upload (the new-evaluation dialog's, `BulkUploadStep`): submissions
 * for any cells, or one run's submission uploaded again (its archive replaced, the cell reproduced
 * and judged again). The matrix is read again once the upload is answered.
 */
export function EvaluationUpload({
  evaluationId,
  papers,
  runs,
}: {
  evaluationId: string;
  papers: string[];
  runs: number;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Open>(null);
  const [paperId, setPaperId] = useState(papers[0] ?? "");
  const [run, setRun] = useState(1);
  const chosenPaper = papers.includes(paperId) ? paperId : (papers[0] ?? "");

  const done = (what: string) => (answer: BulkUploadAnswer) => {
    toast.success(
      `${what}: ${answer.cells.length} submission(s) uploaded${answer.skipped.length ? `, ${answer.skipped.length} skipped` : ""}`,
    );
    setOpen(null);
    void refetchAfterChange(queryClient, evaluationMatrixKey(evaluationId));
  };

  return (
    <section
      aria-labelledby="evaluation-upload-title"
      className="flex flex-wrap items-center gap-x-6 gap-y-2 rounded-lg border border-zinc-200 bg-white p-4"
      data-testid="evaluation-upload"
    >
      <h2 id="evaluation-upload-title" className="sr-only">
        Upload submissions
      </h2>
      <Button onClick={() => setOpen({ kind: "bulk" })} data-testid="evaluation-upload-open">
        <Upload size={14} aria-hidden /> Upload submissions
      </Button>
      {papers.length > 0 && (
        <form
          className="flex flex-wrap items-center gap-2 text-sm text-zinc-700"
          aria-label="Re-upload one run"
          onSubmit={(e) => {
            e.preventDefault();
            setOpen({ kind: "cell", cell: { paperId: chosenPaper, run } });
          }}
        >
          <span>Re-upload one run:</span>
          <select
            aria-label="Paper"
            className={selectClass}
            value={chosenPaper}
            onChange={(e) => setPaperId(e.target.value)}
            data-testid="reupload-paper"
          >
            {papers.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <select
            aria-label="Run"
            className={selectClass}
            value={run}
            onChange={(e) => setRun(Number(e.target.value))}
            data-testid="reupload-run"
          >
            {Array.from({ length: runs }, (_, i) => i + 1).map((r) => (
              <option key={r} value={r}>
                run {r}
              </option>
            ))}
          </select>
          <Button type="submit" variant="secondary" data-testid="reupload-open">
            Re-upload…
          </Button>
        </form>
      )}
      {open?.kind === "bulk" && (
        <Dialog
          title="Upload submissions"
          description="Into this evaluation; runs already uploaded are refused unless you choose to replace them."
          onClose={() => setOpen(null)}
          testId="evaluation-upload-dialog"
        >
          <BulkUploadStep evaluationId={evaluationId} replaceOption onDone={done("Uploaded")} />
        </Dialog>
      )}
      {open?.kind === "cell" && (
        <Dialog
          title={`Re-upload run ${open.cell.run} of ${open.cell.paperId}`}
          onClose={() => setOpen(null)}
          testId="cell-upload-dialog"
        >
          <BulkUploadStep
            evaluationId={evaluationId}
            cell={open.cell}
            onDone={done(`Run ${open.cell.run} of ${open.cell.paperId} re-uploaded`)}
          />
        </Dialog>
      )}
    </section>
  );
}
