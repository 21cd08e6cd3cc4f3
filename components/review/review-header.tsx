"use client";

import { GitCompareArrows, Keyboard, Users } from "lucide-react";
import { BackToPaperLink } from "@/components/layout/back-to-paper-link";
import { IntentLink } from "@/components/layout/intent-prefetch";
import { IconButton } from "@/components/ui/icon-button";
import { Button } from "@/components/ui/button";
import { HiddenVerdictIcon } from "@/components/ui/hidden-verdict";
import type { ReviewModel, ReviewProgress } from "@/lib/review/review-model";
import { AgreementButton } from "./agreement-dialog";
import { GradingExportMenu } from "./grading-export-menu";
import { AttachArchiveButton } from "./attach-archive-button";
import { ReviewProgressBar } from "./review-progress";
import { scoreChipStyle } from "./score-style";
import { ProvenanceLine } from "./provenance-line";

/** The review page's header: which grading, its root scores, the reviewer's assignment and progress, save state, graders, agreement, compare, export, help. */
export function ReviewHeader({
  model,
  progress,
  pending,
  onAssign,
  onHelp,
}: {
  model: ReviewModel;
  progress: ReviewProgress;
  pending: number;
  onAssign(): void;
  onHelp(): void;
}) {
  const { grading, viewer } = model.payload;
  const root = model.nodes[0]?.key;
  const rootScore = model.rootScore;
  const rootVerdict = root ? model.verdictScoreOf(root) : null;
  const assignment = viewer.assignment;
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <BackToPaperLink paperId={grading.paperId} />
      <div className="min-w-0">
        <h1 className="truncate text-base font-semibold leading-tight text-zinc-900" data-testid="review-title">
          {grading.agentName} · run {grading.runIndex}
          {grading.variant === "code-dev" && (
            <span className="ml-1.5 rounded bg-sky-50 px-1.5 text-xs font-medium text-sky-800">Code-Dev</span>
          )}
        </h1>
        <p className="truncate text-xs text-zinc-500">
          {grading.paperTitle} ·{" "}
          {grading.kind === "human"
            ? "human grading"
            : `judge grading${grading.judgeModel ? ` (${grading.judgeModel})` : ""}`}{" "}
          · {grading.rubricVersionName}
        </p>
        <ProvenanceLine provenance={grading.provenance} />
      </div>
      <div
        className="flex items-center gap-2 rounded-md border border-zinc-200 bg-white px-2.5 py-1"
        data-testid="root-scores"
      >
        <span className="text-xs text-zinc-500">{grading.kind === "human" ? "Imported" : "Judge"}</span>
        <span
          className="rounded px-1.5 font-mono text-sm font-semibold tabular-nums"
          style={scoreChipStyle(rootVerdict)}
          data-testid="root-judge-score"
        >
          {rootVerdict === null ? "—" : `${(rootVerdict * 100).toFixed(2)}%`}
        </span>
        <span className="text-zinc-300">→</span>
        <span className="text-xs text-zinc-500">Human-adjusted</span>
        <span
          className="rounded px-1.5 font-mono text-sm font-semibold tabular-nums"
          style={scoreChipStyle(rootScore)}
          data-testid="root-score"
          data-score={rootScore ?? ""}
        >
          {rootScore === null ? "—" : `${(rootScore * 100).toFixed(2)}%`}
        </span>
        {rootScore === null && (
          <span className="text-[11px] text-zinc-500" title="Some verdicts are hidden from you">
            hidden
          </span>
        )}
      </div>
      {assignment && (
        <span
          className="flex items-center gap-1 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600"
          data-testid="assignment-badge"
        >
          {assignment.blind && <HiddenVerdictIcon blind size={12} />}
          {assignment.nodeKeys && <HiddenVerdictIcon blind={false} size={12} />}
          {assignment.blind ? "Blind review" : "Assigned to you"}
          {assignment.nodeKeys
            ? ` · ${assignment.nodeKeys.length === 1 ? "one subtree" : `${assignment.nodeKeys.length} subtrees`}`
            : ""}
        </span>
      )}
      <div className="ml-auto flex flex-wrap items-center justify-end gap-2 xl:gap-3">
        <ReviewProgressBar progress={progress} own={model.countsOwnReviews} />
        <span
          className={`text-xs ${pending ? "text-amber-700" : "text-emerald-700"}`}
          data-testid="review-save-state"
          role="status"
        >
          {pending ? "Saving…" : "Saved"}
        </span>
        {viewer.canAssign && (
          <Button variant="secondary" onClick={onAssign} data-testid="assign-button">
            <Users size={15} aria-hidden /> Graders
          </Button>
        )}
        {viewer.role === "staff" && <AttachArchiveButton gradingId={grading.id} />}
        {model.payload.rootScore !== null && (
          <IntentLink
            href={`/submissions/${grading.submissionId}/compare?a=${grading.id}`}
            className="inline-flex items-center gap-1 rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
            data-testid="compare-link"
            aria-label="Compare"
            title="Compare this grading with another of the same submission, leaf by leaf"
          >
            <GitCompareArrows size={15} aria-hidden />
            {/* Icon only on narrower screens: the header keeps one line at 1024 px. */}
            <span className="hidden xl:inline">Compare</span>
          </IntentLink>
        )}
        {model.payload.rootScore !== null && <AgreementButton gradingId={grading.id} />}
        {model.payload.rootScore !== null && <GradingExportMenu gradingId={grading.id} />}
        <IconButton label="Keyboard shortcuts (?)" onClick={onHelp} testId="review-help" bordered>
          <Keyboard size={15} />
        </IconButton>
      </div>
    </header>
  );
}
