"use client";

import { Undo2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { LINT_LABELS, type LintCode, type LintFinding } from "@/lib/rubric/editor-lint";
import type { LintDismissal } from "@/lib/rubric/lint-dismissals";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import type { SubmitOptions, SubmitResult } from "../rubric-store-types";
import type { RubricOperation } from "@/lib/rubric/operations";
import { plural, truncateText } from "./panel-ui";

type Submit = (op: RubricOperation, options: SubmitOptions) => SubmitResult;

/** Asks why, then dismisses a rule (`key` null) or one node's finding: one operation. */
export function DismissForm({
  what,
  target,
  submit,
  onDone,
}: {
  what: string;
  target: { code: LintCode; key: string | null };
  submit: Submit;
  onDone(): void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  function send() {
    const trimmed = reason.trim();
    if (trimmed === "") {
      setError("Say why: co-editors and reviewers read it in the history");
      return;
    }
    const label = target.key === null ? `Dismiss “${LINT_LABELS[target.code]}”` : "Dismiss a finding";
    const res = submit(
      { kind: "dismiss", code: target.code, key: target.key, reason: trimmed },
      { label, onError: setError },
    );
    if (res.ok) onDone();
    else setError(res.message);
  }
  return (
    <form
      data-testid="lint-dismiss-form"
      className="space-y-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label className="block text-xs text-zinc-700">
        Why dismiss {what}?
        <input
          autoFocus
          data-testid="lint-dismiss-reason"
          value={reason}
          maxLength={1000}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape") onDone();
          }}
          placeholder="e.g. the paper weighs this step lightly on purpose"
          className="mt-1 block w-full rounded-md border border-zinc-300 px-2 py-1 text-[13px] focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
        />
      </label>
      {error && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-1.5">
        <Button type="submit" className="!px-2 !py-1 text-xs" data-testid="lint-dismiss-confirm">
          Dismiss
        </Button>
        <Button variant="ghost" className="!px-2 !py-1 text-xs" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * The dismissals, each with its reason, who made it, how many findings it hides now and "Bring
 * back" (an `undismiss`; Undo after a dismissal does the same).
 */
export function DismissedList({
  dismissals,
  dismissed,
  index,
  canEdit,
  submit,
  onSelect,
}: {
  dismissals: readonly LintDismissal[];
  dismissed: readonly LintFinding[];
  index: TreeIndex;
  canEdit: boolean;
  submit: Submit;
  onSelect(key: string): void;
}) {
  // A node's dismissal of a node no longer in the tree hides nothing: it is kept for a restore, not shown.
  const shown = dismissals.filter((d) => d.key === null || index.byKey.has(d.key));
  if (shown.length === 0) return null;
  const hiddenBy = (d: LintDismissal) =>
    dismissed.filter((f) => f.code === d.code && (d.key === null || f.key === d.key)).length;
  return (
    <details className="rounded-md border border-zinc-200 bg-zinc-50/60" data-testid="lint-dismissed">
      <summary className="cursor-pointer px-2.5 py-1.5 text-xs font-medium text-zinc-700">
        Dismissed ({shown.length.toLocaleString("en")})
      </summary>
      <ul className="divide-y divide-zinc-100 border-t border-zinc-200 bg-white">
        {shown.map((d) => {
          const label = LINT_LABELS[d.code] ?? d.code;
          const node = d.key === null ? null : index.byKey.get(d.key);
          return (
            <li
              key={`${d.code}:${d.key ?? ""}`}
              data-testid="lint-dismissal"
              data-code={d.code}
              data-key={d.key ?? ""}
              className="flex items-start gap-2 px-2.5 py-1.5"
            >
              <div className="min-w-0 flex-1 text-[13px]">
                <p className="text-zinc-900">
                  {d.key === null ? <>Every “{label}”</> : <>“{label}” on </>}
                  {node && (
                    <button
                      type="button"
                      className="text-indigo-700 hover:underline"
                      onClick={() => onSelect(node.key)}
                    >
                      {truncateText(node.requirements, 60)}
                    </button>
                  )}
                  <span className="text-zinc-500"> · hides {plural(hiddenBy(d), "finding")}</span>
                </p>
                <p className="text-xs text-zinc-600" data-testid="lint-dismissal-reason">
                  “{d.reason}”
                  {d.by && (
                    <span className="text-zinc-500">
                      {" "}
                      — {d.by}, revision {d.revision}
                    </span>
                  )}
                </p>
              </div>
              {canEdit && (
                <button
                  type="button"
                  data-testid="lint-undismiss"
                  className="inline-flex shrink-0 items-center gap-1 rounded px-1.5 py-1 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                  onClick={() =>
                    submit({ kind: "undismiss", code: d.code, key: d.key }, { label: `Bring back “${label}”` })
                  }
                >
                  <Undo2 size={12} aria-hidden /> Bring back
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
