"use client";

import { Download, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { downloadRubricExport } from "@/components/api/export-download";
import type { ErrorDetail } from "@/lib/errors";

/**
 * Downloads the rubric.json the server exports (the Code-Dev variant in Code-Dev view). A rubric
 * that breaks PaperBench's rules is refused (409 export_blocked): the reasons are listed with an
 * "Export anyway".
 */
export function ExportButton({
  paperId,
  codeDev,
  beforeExport,
}: {
  paperId: string;
  codeDev: boolean;
  beforeExport(): Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [blocked, setBlocked] = useState<{ message: string; details: ErrorDetail[] } | null>(null);

  async function download(force: boolean) {
    setBusy(true);
    try {
      await beforeExport();
      const outcome = await downloadRubricExport(paperId, { force, codeDev });
      if (!outcome.ok) {
        if (outcome.blocked) setBlocked({ message: outcome.message, details: outcome.details });
        else toast.error(outcome.message);
        return;
      }
      setBlocked(null);
      toast.success(codeDev ? "Exported the Code-Dev variant" : "Exported rubric.json");
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "Export failed");
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button
        onClick={() => download(false)}
        disabled={busy}
        data-testid="export-button"
        title={codeDev ? "Download the Code-Dev variant as rubric.json" : "Download rubric.json"}
      >
        <Download size={15} aria-hidden />
        {busy ? "Exporting…" : codeDev ? "Export Code-Dev" : "Export"}
      </Button>
      {blocked && (
        <Dialog
          onClose={() => setBlocked(null)}
          title="This rubric breaks PaperBench's rules"
          label="Export blocked"
          testId="export-blocked"
          icon={<TriangleAlert className="mt-0.5 shrink-0 text-amber-600" size={18} aria-hidden />}
          description={blocked.message}
          layout="sections"
          className="max-w-xl"
          focusClose={false}
        >
          <ul className="min-h-0 flex-1 space-y-1.5 overflow-auto p-4 text-sm" data-testid="export-blocked-details">
            {blocked.details.map((d, i) => (
              <li key={i} className="rounded-md bg-red-50 px-2.5 py-1.5 text-red-900">
                {d.path && <span className="mr-1.5 font-mono text-xs text-red-700">{d.path}</span>}
                {d.message}
              </li>
            ))}
          </ul>
          <div className="flex justify-end gap-2 border-t border-zinc-100 p-3">
            <Button variant="secondary" onClick={() => setBlocked(null)} autoFocus>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => download(true)} disabled={busy}>
              Export anyway
            </Button>
          </div>
        </Dialog>
      )}
    </>
  );
}
