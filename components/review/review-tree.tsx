"use client";

import { Check, CircleHelp, TriangleAlert, UserPen } from "lucide-react";
import { BLIND_REVIEW_HINT, HiddenVerdictIcon } from "@/components/ui/hidden-verdict";
import { MathText } from "@/components/ui/math-text";
import { TreeToggle } from "@/components/ui/tree-toggle";
import { createContext, memo, useContext, type RefObject } from "react";
import { Tree, type NodeApi, type NodeRendererProps, type RowRendererProps, type TreeApi } from "react-arborist";
import { CategoryChip } from "@/components/rubric-editor/categories";
import { formatWeight } from "@/components/rubric-editor/tree-row-content";
import type { ReviewModel } from "@/lib/review/review-model";
import { chipText, scoreChipStyle } from "./score-style";

/** A row's height: two lines of text when rows wrap, else one. */
export function reviewRowHeight(wrap: boolean): number {
  return wrap ? 46 : 30;
}
const INDENT = 16;

/** One node as react-arborist sees it: structure only (fields are read from the model by key). */
export interface ReviewTreeItem {
  id: string;
  children?: ReviewTreeItem[];
}

/** The nested items of the model's nodes (built once per model: react-arborist rebuilds on a new array). */
export function treeItems(model: ReviewModel): ReviewTreeItem[] {
  const items = model.nodes.map((n) => ({ id: n.key }) as ReviewTreeItem);
  model.nodes.forEach((n, i) => {
    if (n.parentKey === null) return;
    const parent = items[model.indexOf.get(n.parentKey)!];
    (parent.children ??= []).push(items[i]);
  });
  // A subtree grader's tree starts at their subtrees (`viewRoots`).
  return model.viewRoots.map((key) => items[model.indexOf.get(key)!]);
}

/**
 * What every row reads besides its own node; a new value re-renders the visible rows only. The
 * selection is not in it: a click re-renders the row elements (ReviewSelectedKey), not the nodes'
 * contents (chips, badges, formulas).
 */
export interface ReviewRowContextValue {
  model: ReviewModel;
  /** The model's version: bumped by every commit. */
  version: number;
  onSelect(key: string): void;
  /** Rows take two lines. */
  wrap: boolean;
}

export const ReviewRowContext = createContext<ReviewRowContextValue | null>(null);
/** The selected node's key, read by each row's outer element only. */
export const ReviewSelectedKey = createContext<string | null>(null);

function useRowContext(): ReviewRowContextValue {
  const ctx = useContext(ReviewRowContext);
  if (!ctx) throw new Error("ReviewRowContext missing");
  return ctx;
}

/** A score chip: the effective score, and the verdicts' own score struck through when a person changed it. */
export function ScoreChip({
  score,
  verdict,
  leaf,
  testId,
  className = "",
}: {
  score: number | null;
  verdict?: number | null;
  leaf: boolean;
  testId?: string;
  className?: string;
}) {
  const changed = verdict !== undefined && verdict !== null && score !== null && !Object.is(verdict, score);
  return (
    <span className={`inline-flex shrink-0 items-center gap-1 ${className}`}>
      {changed && (
        <span
          className="font-mono text-[10px] tabular-nums text-zinc-400 line-through"
          title="The verdicts' score, before people's overrides"
        >
          {chipText(verdict, leaf)}
        </span>
      )}
      <span
        data-testid={testId}
        data-score={score ?? ""}
        className={`inline-flex min-w-9 justify-center rounded px-1 py-px font-mono text-[11px] font-semibold tabular-nums`}
        style={scoreChipStyle(score)}
        title={score === null ? "Hidden" : `Score ${score}`}
      >
        {chipText(score, leaf)}
      </span>
    </span>
  );
}

const NodeView = memo(function NodeView({ node, style }: NodeRendererProps<ReviewTreeItem>) {
  const { model, wrap } = useRowContext();
  const key = node.id;
  const n = model.node(key);
  if (!n) return null;
  const isLeaf = node.isLeaf;
  const leaf = isLeaf ? model.leaf(key) : undefined;
  const score = model.scoreOf(key);
  const verdict = model.verdictScoreOf(key);
  return (
    <div style={style} className="flex h-full min-w-0 items-center gap-1.5 pr-2">
      {!isLeaf ? (
        <TreeToggle open={node.isOpen} onToggle={() => node.toggle()} />
      ) : (
        <span className="flex size-5 shrink-0 items-center justify-center" aria-hidden>
          {model.isReviewed(key) ? (
            <Check size={13} className="text-emerald-600" data-testid="row-reviewed" aria-label="Reviewed" />
          ) : (
            <span className="size-1.5 rounded-full bg-zinc-300" />
          )}
        </span>
      )}
      <ScoreChip score={score} verdict={verdict} leaf={isLeaf} testId="row-score" />
      <RowText text={model.rowTextOf(key)} full={n.requirements} wrap={wrap} isLeaf={isLeaf} />
      {leaf && <LeafBadges model={model} leafKey={key} />}
      <span className="hidden w-16 shrink-0 justify-end xl:flex">
        <CategoryChip category={n.taskCategory} />
      </span>
      <span
        className="w-8 shrink-0 text-right font-mono text-[11px] tabular-nums text-zinc-400"
        title="Weight (relative among siblings)"
      >
        {formatWeight(n.weight)}
      </span>
    </div>
  );
});

/**
 * A row's requirement: its distinguishing tail among its siblings (the model's `rowTextOf`), on two
 * lines when rows wrap, with its math rendered; the full text on hover.
 */
function RowText({ text, full, wrap, isLeaf }: { text: string; full: string; wrap: boolean; isLeaf: boolean }) {
  return (
    <span
      className={`min-w-0 flex-1 ${wrap ? "line-clamp-2 leading-[1.3] break-words" : "truncate"} ${isLeaf ? "text-zinc-800" : "font-medium text-zinc-900"}`}
      title={full}
      data-testid="row-text"
    >
      {text ? <MathText text={text} inline /> : <span className="italic text-zinc-400">(no requirement text)</span>}
    </span>
  );
}

/** Badges of a leaf: whose verdict, invalid, overridden, hidden. */
export function LeafBadges({
  model,
  leafKey,
  large = false,
}: {
  model: ReviewModel;
  leafKey: string;
  large?: boolean;
}) {
  const leaf = model.leaf(leafKey);
  if (!leaf) return null;
  const size = large ? "text-[11px] px-1.5 py-0.5" : "text-[10px] px-1";
  const unsure = model.isUnsure(leafKey) && (
    <span
      data-testid="badge-unsure"
      className={`flex shrink-0 items-center gap-0.5 rounded bg-violet-50 font-medium text-violet-800 ${size}`}
      title={`Marked unsure by ${leaf.unsure.map((f) => f.user.name ?? f.user.email).join(", ")}`}
    >
      <CircleHelp size={10} aria-hidden />
      unsure
    </span>
  );
  if (leaf.hidden) {
    return (
      <span className="flex shrink-0 items-center gap-1">
        <span
          data-testid="badge-hidden"
          className={`flex shrink-0 items-center gap-0.5 rounded bg-zinc-100 font-medium text-zinc-500 ${size}`}
          title={leaf.hidden === "blind" ? BLIND_REVIEW_HINT : "Outside your assignment"}
        >
          <HiddenVerdictIcon blind={leaf.hidden === "blind"} size={10} />
          {leaf.hidden === "blind" ? "blind" : "not assigned"}
        </span>
        {unsure}
      </span>
    );
  }
  const human = model.payload.grading.kind === "human" || leaf.verdict?.source === "human";
  return (
    <span className="flex shrink-0 items-center gap-1">
      {leaf.verdict && (
        <span
          data-testid={human ? "badge-human" : "badge-judge"}
          className={`rounded font-semibold ${size} ${human ? "bg-fuchsia-50 text-fuchsia-700" : "bg-slate-100 text-slate-600"}`}
          title={human ? "Verdict of a human grader" : "Verdict of the LLM judge"}
        >
          {human ? "H" : "J"}
        </span>
      )}
      {model.isInvalid(leafKey) && (
        <span
          data-testid="badge-invalid"
          className={`flex items-center gap-0.5 rounded bg-red-50 font-medium text-red-700 ${size}`}
          title="Invalid verdict (a judge error): counts 0"
        >
          <TriangleAlert size={10} aria-hidden />
          invalid
        </span>
      )}
      {unsure}
      {leaf.override !== null && (
        <span
          data-testid="badge-overridden"
          className={`flex items-center gap-0.5 rounded bg-amber-50 font-medium text-amber-800 ${size}`}
          title={`Overridden by a person: ${leaf.override}`}
        >
          <UserPen size={10} aria-hidden />
          overridden
        </span>
      )}
    </span>
  );
}

const RowView = memo(function RowView({ node, attrs, innerRef, children }: RowRendererProps<ReviewTreeItem>) {
  const { onSelect } = useRowContext();
  const selected = useContext(ReviewSelectedKey) === node.id;
  return (
    <div
      {...attrs}
      ref={innerRef}
      data-testid="review-row"
      data-key={node.id}
      data-leaf={node.isLeaf || undefined}
      data-selected={selected || undefined}
      aria-selected={selected}
      style={{ ...attrs.style, minWidth: 0 }}
      className={`group cursor-default select-none border-l-2 text-sm outline-none ${
        selected ? "border-indigo-500 bg-indigo-50" : "border-transparent hover:bg-zinc-50"
      } ${node.isFocused && !selected ? "shadow-[inset_0_0_0_1px_var(--color-indigo-200)]" : ""}`}
      onFocus={(e) => e.stopPropagation()}
      onClick={(e) => {
        node.handleClick(e);
        onSelect(node.id);
      }}
    >
      {children}
    </div>
  );
});

export interface ReviewTreeProps {
  treeRef: RefObject<TreeApi<ReviewTreeItem> | null>;
  data: ReviewTreeItem[];
  height: number;
  initialOpenState: Record<string, boolean>;
  /** Non-empty while filters are on. */
  filterToken: string;
  filterMatch: (node: NodeApi<ReviewTreeItem>) => boolean;
  onFocusKey(key: string): void;
  rowHeight: number;
}

/** The virtualized graded tree. Every prop must keep its identity between renders. */
export const ReviewTree = memo(function ReviewTree(props: ReviewTreeProps) {
  return (
    <Tree<ReviewTreeItem>
      ref={props.treeRef}
      data={props.data}
      width="100%"
      height={props.height}
      rowHeight={props.rowHeight}
      indent={INDENT}
      overscanCount={12}
      paddingBottom={props.rowHeight * 2}
      openByDefault={false}
      initialOpenState={props.initialOpenState}
      disableDrag
      disableDrop
      disableEdit
      disableMultiSelection
      onFocus={(node) => props.onFocusKey(node.id)}
      searchTerm={props.filterToken}
      searchMatch={props.filterMatch}
      renderRow={RowView}
      className="outline-none"
      aria-label="Graded rubric tree"
    >
      {NodeView}
    </Tree>
  );
});
