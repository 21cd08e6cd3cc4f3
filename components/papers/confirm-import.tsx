"use client";

import { AlertTriangle } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { ApiClientError, fetchJson } from "@/components/api/client";
import { DiffView } from "@/components/rubric-editor/panels/diff-view";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { ErrorDetail } from "@/lib/errors";
import type { ImportPreview } from "@/lib/papers/import-preview";

interface Asking {
  form: FormData;
  preview: ImportPreview;
  /** The rubric changed between the first preview and the confirmation: this is the new diff. */
  changedMeanwhile: boolean;
}

/**
 * An upload that asks before it replaces a rubric: the files go to `previewUrl` first (nothing is
 * written); when there is a rubric to replace, the caller shows `ReplaceRubricDialog` and the
 * import is sent only on confirmation, naming the revision the user saw (`expectedRevision`). When
 * the rubric changed meanwhile the server answers 409 and the dialog shows the fresh diff.
 */
export function useConfirmedImport<R>({
  previewUrl,
  importUrl,
  importMethod,
  onImported,
}: {
  previewUrl: string;
  importUrl: string;
  importMethod: "POST" | "PUT";
  onImported(result: R): void | Promise<unknown>;
}) {
  const [pending, setPending] = useState<"preview" | "import" | null>(null);
  const [errors, setErrors] = useState<ErrorDetail[]>([]);
  const [asking, setAsking] = useState<Asking | null>(null);

  const fail = (err: unknown) => {
    if (!(err instanceof ApiClientError)) throw err;
    toast.error(err.message);
    setErrors(err.details);
  };
  const send = async (form: FormData, preview: ImportPreview) => {
    form.set("expectedRevision", String(preview.revision));
    setPending("import");
    const result = await fetchJson<R>(importUrl, { method: importMethod, body: form });
    setAsking(null);
    await onImported(result);
  };

  async function start(form: FormData) {
    setErrors([]);
    setPending("preview");
    try {
      const preview = await fetchJson<ImportPreview>(previewUrl, { method: "POST", body: form });
      if (preview.replaces) setAsking({ form, preview, changedMeanwhile: false });
      else await send(form, preview);
    } catch (err) {
      fail(err);
    } finally {
      setPending(null);
    }
  }

  async function confirm() {
    if (!asking) return;
    try {
      await send(asking.form, asking.preview);
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 409) {
        // Someone changed the rubric after the preview: show what the upload changes now.
        try {
          const preview = await fetchJson<ImportPreview>(previewUrl, { method: "POST", body: asking.form });
          setAsking({ form: asking.form, preview, changedMeanwhile: true });
        } catch (again) {
          setAsking(null);
          fail(again);
        }
      } else {
        setAsking(null);
        fail(err);
      }
    } finally {
      setPending(null);
    }
  }

  return { start, confirm, cancel: () => setAsking(null), asking, pending, errors };
}

const NOTHING_LIVE: ReadonlySet<string> = new Set();

/** The changes an upload makes to a rubric, and the question whether to replace it. */
export function ReplaceRubricDialog({
  asking,
  pending,
  onConfirm,
  onCancel,
}: {
  asking: Asking;
  pending: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { preview, changedMeanwhile } = asking;
  return (
    <Dialog
      onClose={onCancel}
      testId="replace-rubric-dialog"
      title={`Replace the rubric of ${preview.paperId}?`}
      icon={<AlertTriangle size={18} className="mt-0.5 shrink-0 text-amber-600" aria-hidden />}
      description={
        <>
          The upload replaces revision {preview.revision} with {preview.stats.nodes.toLocaleString("en")} nodes
          {preview.warnings.length > 0
            ? ` (${preview.warnings.length} PaperBench warning${preview.warnings.length === 1 ? "" : "s"})`
            : ""}
          . Nothing changes until you confirm; the current rubric stays in its history.
        </>
      }
      layout="sections"
      className="max-w-3xl"
      focusClose={false}
    >
      <div className="min-h-0 flex-1 space-y-3 overflow-auto p-4">
        {changedMeanwhile && (
          <p
            role="status"
            data-testid="replace-changed-meanwhile"
            className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          >
            The rubric changed while you were looking (now revision {preview.revision}). These are the changes the
            upload makes now.
          </p>
        )}
        {preview.paperFields.length > 0 && (
          <p data-testid="replace-paper-fields" className="text-sm text-zinc-700">
            The folder also changes the paper&apos;s {joinWords(preview.paperFields)}.
          </p>
        )}
        {preview.diff && (
          <DiffView
            diff={preview.diff}
            beforeRows={preview.parentRows.before}
            afterRows={preview.parentRows.after}
            liveKeys={NOTHING_LIVE}
            onSelect={() => {}}
          />
        )}
      </div>
      <div className="flex justify-end gap-2 border-t border-zinc-100 p-4">
        <Button variant="secondary" onClick={onCancel} data-testid="replace-cancel" autoFocus>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={pending} data-testid="replace-confirm">
          {pending ? "Replacing…" : `Replace revision ${preview.revision}`}
        </Button>
      </div>
    </Dialog>
  );
}

function joinWords(words: readonly string[]): string {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
