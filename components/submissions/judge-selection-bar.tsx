"use client";

import Link from "next/link";
import { toast } from "sonner";
import { RunJudgeButton } from "@/components/judge/run-judge-dialog";
import { Button } from "@/components/ui/button";
import type { Variant } from "@/lib/grading/variant";
import type { JudgeRunView } from "@/lib/judge/views";
import type { SubmissionItem } from "./submission-item";

/** A reproduction that ran is judged however it ended (`lib/jobs/judge-source.ts`); a cancelled or unreproduced one is not. */
const RAN: readonly (string | null)[] = ["succeeded", "failed", "timed_out"];

/** Full when every selected run was reproduced (whatever reproduce.sh's end); else Code-Dev (full would be refused). */
function defaultVariantOf(selected: readonly SubmissionItem[]): Variant {
  return selected.every((s) => s.variant === "full" && RAN.includes(s.latestJobStatus)) ? "full" : "code-dev";
}

function announceStarted(runs: readonly JudgeRunView[], items: readonly SubmissionItem[]): void {
  const byId = new Map(items.map((s) => [s.id, s]));
  toast.success(`Judge started on ${runs.length} submission${runs.length === 1 ? "" : "s"}`, {
    description: (
      <span className="flex flex-wrap gap-x-3" data-testid="judge-started-links">
        {runs.map((r) => {
          const s = byId.get(r.submissionId);
          return (
            <Link key={r.id} href={`/submissions/${r.submissionId}`} className="text-indigo-700 underline">
              {s ? `${s.agentName} run ${s.runIndex}` : "submission"}
            </Link>
          );
        })}
      </span>
    ),
  });
}

/** Staff's bar over a selection: how many, "Run judge on N…" (the submission page's dialog), clear. */
export function JudgeSelectionBar({
  selected,
  onClear,
  onStarted,
}: {
  selected: SubmissionItem[];
  onClear(): void;
  onStarted(): void;
}) {
  if (selected.length === 0) return null;
  return (
    // Sticky: staff tick runs further down a long list and still see the count and the button.
    <div
      className="sticky top-0 z-10 mb-3 flex flex-wrap items-center gap-2 rounded-md border border-indigo-100 bg-indigo-50 px-3 py-2 text-sm shadow-sm"
      data-testid="judge-selection"
    >
      <span className="text-zinc-700">
        <span className="font-medium tabular-nums">{selected.length}</span> selected
      </span>
      <span className="ml-auto flex items-center gap-2">
        <Button variant="ghost" onClick={onClear}>
          Clear
        </Button>
        <RunJudgeButton
          target={{ submissionIds: selected.map((s) => s.id) }}
          defaultVariant={defaultVariantOf(selected)}
          label={`Run judge on ${selected.length}…`}
          onStarted={(runs) => {
            announceStarted(runs, selected);
            onClear();
            onStarted();
          }}
        />
      </span>
    </div>
  );
}
