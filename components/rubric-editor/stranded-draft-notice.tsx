"use client";

import { AlertTriangle } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { StrandedEdit } from "./rubric-live-events";
import { restoreStrandedEdit } from "./restore-stranded-edit";
import type { RubricStore } from "./rubric-store";

/** Who deleted a node, to the person who lost it: their name, or the command line. */
export const deleterName = (by: string | null) => by ?? "Someone (from the command line)";

/**
 * The text someone typed into a node another person deleted meanwhile: kept on screen until they
 * restore the node with it (one click) or copy it and let it go.
 */
export function StrandedDraftNotice({
  store,
  edit,
  onDone,
}: {
  store: RubricStore;
  edit: StrandedEdit;
  onDone(): void;
}) {
  const text = edit.op.fields.requirements ?? "";
  const [problem, setProblem] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);

  async function restore() {
    setBusy(true);
    const res = await restoreStrandedEdit(store, edit, "Edit requirements");
    setBusy(false);
    if (res.ok) onDone();
    else setProblem(res.message);
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setProblem("The browser did not allow copying: select the text above and copy it.");
    }
  }

  return (
    <div
      role="alert"
      data-testid="stranded-draft"
      className="w-[356px] max-w-[calc(100vw-2rem)] space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-zinc-900 shadow-lg"
    >
      <p className="flex items-start gap-2 font-medium">
        <AlertTriangle size={16} className="mt-0.5 shrink-0 text-amber-600" aria-hidden />
        <span data-testid="stranded-draft-title">
          {deleterName(edit.deletion.by)} deleted the node you were editing. Your text is kept:
        </span>
      </p>
      <textarea
        readOnly
        aria-label="Your unsaved text"
        data-testid="stranded-draft-text"
        value={text}
        rows={3}
        className="w-full resize-none rounded-md border border-amber-200 bg-white px-2 py-1 text-xs leading-5"
        onFocus={(e) => e.target.select()}
      />
      {problem && <p className="text-xs text-red-700">{problem}</p>}
      <div className="flex flex-wrap gap-1.5">
        <Button
          data-testid="stranded-draft-restore"
          disabled={busy}
          onClick={() => void restore()}
          className="px-2 py-1 text-xs"
        >
          Restore the node with my text
        </Button>
        <Button
          variant="secondary"
          data-testid="stranded-draft-copy"
          onClick={() => void copy()}
          className="px-2 py-1 text-xs"
        >
          {copied ? "Copied" : "Copy text"}
        </Button>
        <Button variant="ghost" data-testid="stranded-draft-dismiss" onClick={onDone} className="px-2 py-1 text-xs">
          Discard
        </Button>
      </div>
    </div>
  );
}
