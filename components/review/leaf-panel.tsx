"use client";

import { useQuery } from "@tanstack/react-query";
import type { RefObject } from "react";
import { CategoryChip } from "@/components/rubric-editor/categories";
import { formatWeight } from "@/components/rubric-editor/tree-row-content";
import { Button } from "@/components/ui/button";
import { BLIND_REVIEW_HINT, HiddenVerdictIcon } from "@/components/ui/hidden-verdict";
import { LazyMarkdown } from "@/components/ui/lazy-markdown";
import { MathText } from "@/components/ui/math-text";
import { fetchJson } from "@/components/api/client";
import { effectiveLeafScore } from "@/lib/grading/effective-score";
import type { ReviewModel } from "@/lib/review/review-model";
import type { ReviewLeafDetail } from "@/lib/review/types";
import { EvidenceLinks } from "./evidence-links";
import { LeafHistory } from "./leaf-history";
import { PanelSection as Section } from "./panel-section";
import { UnsureSection } from "./unsure-section";
import { LeafBadges, ScoreChip } from "./review-tree";

export const leafQueryKey = (gradingId: string, key: string) => ["review-leaf", gradingId, key] as const;

export function fetchLeafDetail(gradingId: string, key: string): Promise<ReviewLeafDetail> {
  return fetchJson<ReviewLeafDetail>(`/api/gradings/${gradingId}/leaves/${key}`);
}

/** A score being prepared on a leaf: chosen with 0/1 (or the buttons), committed with a reason. */
export interface ScoreDraft {
  key: string;
  score: number;
}

export interface LeafPanelProps {
  model: ReviewModel;
  version: number;
  gradingId: string;
  selectedKey: string;
  canReview: boolean;
  /** After a committed score the page moves to the next unreviewed leaf. */
  autoAdvance: boolean;
  onAutoAdvance(on: boolean): void;
  draft: ScoreDraft | null;
  reason: string;
  reasonRef: RefObject<HTMLTextAreaElement | null>;
  /** The "unsure" note box (`u` focuses it). */
  unsureRef: RefObject<HTMLInputElement | null>;
  /** After the viewer flags the leaf unsure: move on. */
  onUnsureFlagged(): void;
  committing: boolean;
  onDraft(score: number): void;
  onReason(text: string): void;
  onCommit(): void;
  onCancel(): void;
  onAssignSubtree?(key: string): void;
  /** Opens a file of the submission at lines (an evidence link). */
  onOpenEvidence?(path: string, startLine: number, endLine: number): void;
}

/** The selected node: requirements, the verdict with its explanation and full response, the score control and history. */
export function LeafPanel(props: LeafPanelProps) {
  const { model, selectedKey } = props;
  const node = model.node(selectedKey);
  if (!node) return null;
  if (!model.isLeaf(selectedKey)) return <NodeSummary {...props} />;
  return <LeafView {...props} />;
}

function LeafView({
  model,
  gradingId,
  selectedKey,
  canReview,
  autoAdvance,
  onAutoAdvance,
  draft,
  reason,
  reasonRef,
  unsureRef,
  onUnsureFlagged,
  committing,
  onDraft,
  onReason,
  onCommit,
  onCancel,
  onOpenEvidence,
}: LeafPanelProps) {
  const node = model.node(selectedKey)!;
  const leaf = model.leaf(selectedKey)!;
  const detail = useQuery({
    queryKey: leafQueryKey(gradingId, selectedKey),
    queryFn: () => fetchLeafDetail(gradingId, selectedKey),
    staleTime: Infinity,
  });
  const judgeLabel = model.payload.grading.kind === "human" ? "Imported human grading" : "Judge";
  const effective = model.effectiveScore(selectedKey);
  const inScope = model.inScope(selectedKey);
  const chosen = draft?.key === selectedKey ? draft.score : null;
  const changes = chosen !== null && leaf.hidden !== "blind" && (chosen !== effective || model.isInvalid(selectedKey));
  const d = detail.data?.key === selectedKey ? detail.data : undefined;
  const response = judgeResponse(d?.verdict?.judgeMetadata);
  return (
    <div className="space-y-4" data-testid="leaf-panel" data-key={selectedKey}>
      <header className="space-y-1.5">
        <div className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-500">
          <span className="font-semibold uppercase tracking-wide">Leaf</span>
          <CategoryChip category={node.taskCategory} />
          {node.finegrainedTaskCategory && (
            <span className="truncate text-[11px] text-zinc-400">{node.finegrainedTaskCategory}</span>
          )}
          <span className="ml-auto font-mono text-[11px]" title="Weight among its siblings">
            weight {formatWeight(node.weight)}
          </span>
        </div>
        <p className="whitespace-pre-wrap text-sm leading-relaxed text-zinc-900" data-testid="leaf-requirements">
          <MathText text={node.requirements} />
        </p>
        <p className="truncate font-mono text-[10px] text-zinc-400" title={node.nodeId}>
          {node.nodeId}
        </p>
      </header>

      <div
        className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm"
        data-testid="leaf-scores"
      >
        {leaf.hidden ? (
          <span className="flex items-center gap-1.5 text-zinc-600" data-testid="verdict-hidden">
            <HiddenVerdictIcon blind={leaf.hidden === "blind"} size={14} />
            {leaf.hidden === "blind"
              ? `${BLIND_REVIEW_HINT}.`
              : "This leaf is outside the part of the grading assigned to you."}
          </span>
        ) : (
          <>
            <span className="flex items-center gap-1.5">
              <span className="text-xs text-zinc-500">{judgeLabel}</span>
              <span data-testid="leaf-judge-score">
                <ScoreChip score={leaf.verdict ? effectiveLeafScore(null, leaf.verdict) : null} leaf />
              </span>
            </span>
            <span className="flex items-center gap-1.5">
              <span className="text-xs text-zinc-500">{leaf.override !== null ? "Human-adjusted" : "Effective"}</span>
              <span data-testid="leaf-effective-score">
                <ScoreChip score={effective} leaf />
              </span>
            </span>
            <LeafBadges model={model} leafKey={selectedKey} large />
          </>
        )}
        {leaf.mine !== null && (
          <span className="text-xs text-emerald-700" data-testid="leaf-mine">
            You committed {leaf.mine}
          </span>
        )}
      </div>

      {canReview && inScope && (
        <Section title={leaf.hidden === "blind" ? "Your score" : "Review"} testId="override-control">
          <div className="flex flex-wrap items-center gap-2">
            {[0, 1].map((s) => (
              <button
                key={s}
                type="button"
                data-testid={`score-${s}`}
                aria-pressed={chosen === s}
                disabled={committing}
                onClick={() => onDraft(s)}
                className={`h-8 w-12 rounded-md border font-mono text-sm font-semibold transition-colors ${
                  chosen === s
                    ? "border-indigo-500 bg-indigo-600 text-white"
                    : "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50"
                }`}
                title={`Score ${s} (key ${s})`}
              >
                {s}
              </button>
            ))}
            <span className="text-xs text-zinc-500">
              {leaf.hidden === "blind"
                ? "Press 0 or 1 to commit your score: one that differs from the verdict overrides it, marked Blind review."
                : chosen === null
                  ? `Press ${effective === 1 ? "1" : "0"} to confirm, ${effective === 1 ? "0" : "1"} to change it.`
                  : changes
                    ? `Override ${effective ?? "?"} → ${chosen}: say why, then Enter.`
                    : "Enter confirms."}
            </span>
          </div>
          <label className="flex w-fit items-center gap-1.5 text-xs text-zinc-600">
            <input
              type="checkbox"
              data-testid="auto-advance"
              checked={autoAdvance}
              onChange={(e) => onAutoAdvance(e.target.checked)}
              className="accent-indigo-600"
            />
            Go to the next unreviewed leaf after a score
          </label>
          {leaf.hidden !== "blind" && (
            <>
              <label className="sr-only" htmlFor="override-reason">
                Reason
              </label>
              <textarea
                id="override-reason"
                ref={reasonRef}
                data-testid="override-reason"
                rows={2}
                value={reason}
                disabled={committing}
                onChange={(e) => onReason(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                    e.preventDefault();
                    onCommit();
                  } else if (e.key === "Escape") {
                    e.preventDefault();
                    onCancel();
                  }
                }}
                aria-invalid={changes && reason.trim() === "" ? true : undefined}
                placeholder={
                  changes
                    ? "Why? (required to change a score; Enter commits, Esc cancels)"
                    : "Reason (r) — required when you change the score"
                }
                className="block w-full resize-y rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm shadow-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 aria-invalid:border-amber-500"
              />
              <div className="flex items-center gap-2">
                <Button
                  data-testid="commit-score"
                  disabled={
                    committing || chosen === null || (changes && reason.trim() === "" && !model.isInvalid(selectedKey))
                  }
                  onClick={onCommit}
                >
                  {chosen === null ? "Choose a score" : changes ? `Override to ${chosen}` : `Confirm ${chosen}`}
                </Button>
                {chosen !== null && (
                  <Button variant="ghost" onClick={onCancel}>
                    Cancel
                  </Button>
                )}
              </div>
            </>
          )}
        </Section>
      )}

      <UnsureSection
        key={selectedKey}
        model={model}
        gradingId={gradingId}
        leafKey={selectedKey}
        canFlag={canReview && inScope}
        noteRef={unsureRef}
        onFlagged={onUnsureFlagged}
      />

      {!leaf.hidden && (
        <>
          <Section title="Explanation" testId="leaf-explanation">
            {detail.isPending ? (
              <div className="h-12 animate-pulse rounded bg-zinc-100" />
            ) : detail.isError ? (
              <p className="text-sm text-red-700">{detail.error.message}</p>
            ) : d?.verdict?.explanation ? (
              <div className="text-sm">
                <LazyMarkdown>{d.verdict.explanation}</LazyMarkdown>
              </div>
            ) : (
              <p className="text-sm text-zinc-500">No explanation.</p>
            )}
          </Section>
          {d?.verdict && onOpenEvidence && (
            <EvidenceLinks
              judgeMetadata={d.verdict.judgeMetadata}
              filesUrl={`/api/gradings/${gradingId}/files`}
              onOpen={onOpenEvidence}
            />
          )}
          {d?.verdict && (response.text !== null || response.rest !== null) && (
            <details className="group rounded-md border border-zinc-200" data-testid="judge-response">
              <summary className="cursor-pointer select-none px-3 py-1.5 text-xs font-medium text-zinc-700 hover:bg-zinc-50">
                Full judge response
              </summary>
              <div className="space-y-2 border-t border-zinc-200 px-3 py-2 text-sm">
                {response.text !== null && <LazyMarkdown>{response.text}</LazyMarkdown>}
                {response.rest !== null && (
                  <pre className="max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-[11px] text-zinc-700">
                    {response.rest}
                  </pre>
                )}
              </div>
            </details>
          )}
          <LeafHistory detail={d} />
        </>
      )}
    </div>
  );
}

/** The judge's answer in `judge_metadata` (`full_judge_response`, PaperBench's SimpleJudge), and the rest as JSON. */
function judgeResponse(meta: unknown): { text: string | null; rest: string | null } {
  if (meta === null || meta === undefined) return { text: null, rest: null };
  if (typeof meta !== "object" || Array.isArray(meta)) return { text: null, rest: JSON.stringify(meta, null, 2) };
  const { full_judge_response: full, ...rest } = meta as Record<string, unknown>;
  return {
    text: typeof full === "string" ? full : null,
    rest: Object.keys(rest).length ? JSON.stringify(typeof full === "string" ? rest : meta, null, 2) : null,
  };
}

/** An internal node: its requirement, judge and human-adjusted scores, and review counts below it. */
function NodeSummary({ model, selectedKey, onAssignSubtree }: LeafPanelProps) {
  const node = model.node(selectedKey)!;
  const index = model.indexOf.get(selectedKey)!;
  let leaves = 0;
  let reviewed = 0;
  let overridden = 0;
  let hidden = 0;
  // The subtree is the pre-order run after the node while the depth is below it.
  const inside = new Set([selectedKey]);
  for (let i = index + 1; i < model.nodes.length && inside.has(model.nodes[i].parentKey ?? ""); i++) {
    const k = model.nodes[i].key;
    inside.add(k);
    if (!model.isLeaf(k)) continue;
    leaves++;
    if (model.isReviewed(k)) reviewed++;
    if (model.leaf(k)?.override !== null) overridden++;
    if (model.leaf(k)?.hidden) hidden++;
  }
  const score = model.scoreOf(selectedKey);
  const verdict = model.verdictScoreOf(selectedKey);
  return (
    <div className="space-y-4" data-testid="leaf-panel" data-key={selectedKey}>
      <header className="space-y-1.5">
        <div className="flex items-center gap-1.5 text-xs text-zinc-500">
          <span className="font-semibold uppercase tracking-wide">{node.parentKey === null ? "Root" : "Node"}</span>
          <span className="ml-auto font-mono text-[11px]">weight {formatWeight(node.weight)}</span>
        </div>
        <p className="whitespace-pre-wrap text-sm leading-relaxed text-zinc-900" data-testid="leaf-requirements">
          <MathText text={node.requirements} />
        </p>
      </header>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm">
        <span className="flex items-center gap-1.5">
          <span className="text-xs text-zinc-500">
            {model.payload.grading.kind === "human" ? "Imported grading" : "Judge"}
          </span>
          <ScoreChip score={verdict} leaf={false} />
        </span>
        <span className="flex items-center gap-1.5">
          <span className="text-xs text-zinc-500">Human-adjusted</span>
          <ScoreChip score={score} leaf={false} testId="node-effective-score" />
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <Stat label="Leaves" value={leaves} />
        <Stat label="Reviewed" value={`${reviewed} / ${leaves - (model.countsOwnReviews ? hidden : 0)}`} />
        <Stat label="Overridden" value={overridden} />
        {hidden > 0 && <Stat label="Hidden from you" value={hidden} />}
      </dl>
      <p className="text-xs text-zinc-500">
        <kbd className="font-mono">j</kbd>/<kbd className="font-mono">k</kbd> walk the leaves,{" "}
        <kbd className="font-mono">n</kbd> jumps to the next one nobody has reviewed.
      </p>
      {onAssignSubtree && (
        <Button variant="secondary" onClick={() => onAssignSubtree(selectedKey)} data-testid="assign-subtree">
          Assign this subtree…
        </Button>
      )}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="rounded border border-zinc-200 px-2 py-1">
      <dt className="text-[11px] text-zinc-500">{label}</dt>
      <dd className="font-mono tabular-nums text-zinc-900">
        {typeof value === "number" ? value.toLocaleString("en") : value}
      </dd>
    </div>
  );
}
