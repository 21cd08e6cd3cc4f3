"use client";

import { TreeToggle } from "@/components/ui/tree-toggle";
import { MessageSquare } from "lucide-react";
import { createContext, memo, useContext, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import type { NodeApi, NodeRendererProps } from "react-arborist";
import { MathText } from "@/components/ui/math-text";
import { mayHoldMath } from "@/lib/math";
import { formatShare } from "@/lib/rubric/shares";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { CategoryChip } from "./categories";
import type { LintSummary, TreeItem } from "./derive";
import { PresenceMarkers } from "./presence/presence-avatars";
import type { PresencePerson } from "./presence/use-presence";
import { useRequirementDraft, type RequirementEdit } from "./use-requirement-draft";

/**
 * What a row of the editor's tree shows: its content (`NodeView`, over the memoized `RowContent`),
 * the in-row requirement editor, and the context every row reads (`RowContext`).
 */

/** What every row reads besides its own node; a change re-renders the visible rows only. */
export interface RowContextValue {
  index: TreeIndex;
  shares: Map<string, number>;
  lintByKey: Map<string, LintSummary>;
  canEdit: boolean;
  /** Lower-cased search term ("" for none). */
  needle: string;
  currentMatch: string | null;
  /** Other people on the rubric, by the node they have selected or are editing. */
  presence: Map<string, PresencePerson[]>;
  /** Unresolved comment threads per node. */
  openThreads: Map<string, number>;
  /** Saves the inline editor's text (stable: a new one would re-render every row). */
  saveRequirements(edit: RequirementEdit): void;
}

export const RowContext = createContext<RowContextValue | null>(null);

export function useRowContext(): RowContextValue {
  const ctx = useContext(RowContext);
  if (!ctx) throw new Error("RowContext missing");
  return ctx;
}

/** The requirement text on one line with the search term marked. */
export function Highlight({ text, needle }: { text: string; needle: string }): ReactNode {
  let flat = text.replace(/\s+/g, " ");
  if (!needle) return flat;
  let lower = flat.toLowerCase();
  let i = lower.indexOf(needle);
  if (i < 0) return flat;
  // A match far into a long text would be cut off by the row's ellipsis: start the row near it.
  if (i > 48) {
    const from = flat.lastIndexOf(" ", i - 24) + 1 || i - 24;
    flat = `…${flat.slice(from)}`;
    lower = flat.toLowerCase();
    i = lower.indexOf(needle);
  }
  const parts: ReactNode[] = [];
  let at = 0;
  while (i >= 0) {
    if (i > at) parts.push(flat.slice(at, i));
    parts.push(
      <mark key={i} className="rounded-sm bg-amber-200 px-0 text-zinc-900">
        {flat.slice(i, i + needle.length)}
      </mark>,
    );
    at = i + needle.length;
    i = lower.indexOf(needle, at);
  }
  if (at < flat.length) parts.push(flat.slice(at));
  return parts;
}

export function LintDot({ lint, className = "" }: { lint: LintSummary | undefined; className?: string }) {
  if (!lint) return <span className={`inline-block size-2 shrink-0 ${className}`} aria-hidden />;
  const n = lint.errors + lint.warnings;
  const label = `${lint.errors ? `${lint.errors} error${lint.errors === 1 ? "" : "s"}` : ""}${lint.errors && lint.warnings ? ", " : ""}${
    lint.warnings ? `${lint.warnings} warning${lint.warnings === 1 ? "" : "s"}` : ""
  }`;
  return (
    <span
      data-testid="lint-marker"
      data-severity={lint.worst}
      role="img"
      aria-label={`${label}: ${lint.messages.replace(/\n/g, "; ")}`}
      title={lint.messages}
      className={`inline-block size-2 shrink-0 rounded-full ${lint.worst === "error" ? "bg-red-500" : "bg-amber-400"} ${
        n > 1 ? "ring-2 ring-offset-0 " + (lint.worst === "error" ? "ring-red-200" : "ring-amber-200") : ""
      } ${className}`}
    />
  );
}

/**
 * A row's content, from what the row context says of this node. The context changes with every
 * edit (a new index); the content renders again only when its own node's values do (RowContent is
 * memoized on them), so an edit re-renders the rows it changed, not every visible one.
 */
export const NodeView = memo(function NodeView({ node, style, dragHandle, preview }: NodeRendererProps<TreeItem>) {
  const ctx = useRowContext();
  const row = ctx.index.byKey.get(node.id);
  if (!row) return null;
  return (
    <RowContent
      node={node}
      style={style}
      dragHandle={dragHandle}
      row={row}
      childCount={node.data.children.length}
      isOpen={node.isOpen}
      isEditing={node.isEditing && !preview}
      share={ctx.shares.get(row.key) ?? 0}
      lint={ctx.lintByKey.get(row.key)}
      isCurrent={ctx.currentMatch === row.key}
      needle={ctx.needle}
      canEdit={ctx.canEdit}
      people={ctx.presence.get(row.key)}
      openThreads={ctx.openThreads.get(row.key)}
      save={ctx.saveRequirements}
    />
  );
});

interface RowContentProps {
  node: NodeApi<TreeItem>;
  style: NodeRendererProps<TreeItem>["style"];
  dragHandle: NodeRendererProps<TreeItem>["dragHandle"];
  /** The node's row: a changed node is a new object, an unchanged one keeps its identity. */
  row: NodeRow;
  childCount: number;
  isOpen: boolean;
  isEditing: boolean;
  share: number;
  lint: LintSummary | undefined;
  isCurrent: boolean;
  needle: string;
  canEdit: boolean;
  people: PresencePerson[] | undefined;
  openThreads: number | undefined;
  save: RowContextValue["saveRequirements"];
}

/** Toggle, lint marker, text, fine-grained category, category, weight, share. */
const RowContent = memo(function RowContent({
  node,
  style,
  dragHandle,
  row,
  childCount,
  isOpen,
  isEditing,
  share,
  lint,
  isCurrent,
  needle,
  canEdit,
  people,
  openThreads,
  save,
}: RowContentProps) {
  const hasKids = childCount > 0;
  return (
    <div ref={dragHandle} style={style} className="flex h-full min-w-0 items-center gap-1.5 pr-3">
      {hasKids ? (
        <TreeToggle open={isOpen} onToggle={() => node.toggle()} />
      ) : (
        <span className="flex size-5 shrink-0 items-center justify-center" aria-hidden>
          <span className="size-1 rounded-full bg-zinc-300" />
        </span>
      )}
      <LintDot lint={lint} />
      {isEditing ? (
        <InlineEditor node={node} saved={row.requirements} save={save} />
      ) : (
        <span
          data-testid="row-text"
          className={`min-w-0 flex-1 truncate ${hasKids ? "font-medium text-zinc-900" : "text-zinc-800"} ${isCurrent ? "underline decoration-amber-500 decoration-2 underline-offset-4" : ""}`}
          title={row.requirements}
        >
          {row.requirements.trim() === "" ? (
            <span className="italic text-zinc-400">
              {canEdit ? "Empty: press Enter to write the requirement" : "(no requirement text)"}
            </span>
          ) : needle === "" && mayHoldMath(row.requirements) ? (
            // Search marks and KaTeX's markup do not mix: while searching, the row shows the TeX.
            <MathText text={row.requirements.replace(/\s+/g, " ")} />
          ) : (
            <Highlight text={row.requirements} needle={needle} />
          )}
        </span>
      )}
      <PresenceMarkers people={people} />
      <OpenThreads count={openThreads} />
      {hasKids && (
        <span
          className="shrink-0 rounded-full bg-zinc-100 px-1.5 text-[10px] tabular-nums text-zinc-500"
          title={`${childCount} sub-tasks`}
        >
          {childCount}
        </span>
      )}
      <span
        className="hidden w-44 shrink-0 truncate text-right text-[11px] text-zinc-400 2xl:block"
        title={row.finegrainedTaskCategory ?? undefined}
      >
        {row.finegrainedTaskCategory}
      </span>
      <span className="flex w-20 shrink-0 justify-end">
        <CategoryChip category={row.taskCategory} />
      </span>
      <span
        data-testid="row-weight"
        className="w-10 shrink-0 text-right font-mono text-xs tabular-nums text-zinc-500"
        title="Weight (relative among siblings)"
      >
        {formatWeight(row.weight)}
      </span>
      <span
        data-testid="row-share"
        className={`w-16 shrink-0 text-right font-mono text-xs tabular-nums ${share === 0 ? "text-red-600" : "text-indigo-700"}`}
        title="Share of the final score"
      >
        {formatShare(share)}
      </span>
    </div>
  );
});

function OpenThreads({ count }: { count: number | undefined }) {
  if (!count) return null;
  const label = `${count} open comment thread${count === 1 ? "" : "s"}`;
  return (
    <span
      className="flex shrink-0 items-center gap-0.5 rounded bg-sky-50 px-1 text-[10px] font-medium tabular-nums text-sky-700"
      title={label}
      aria-label={label}
      data-testid="row-comments"
    >
      <MessageSquare size={11} aria-hidden />
      {count}
    </span>
  );
}

export function formatWeight(w: number): string {
  if (Number.isInteger(w)) return String(w);
  return String(Number(w.toPrecision(4)));
}

/**
 * In-row editor of the requirement text: Enter saves, Shift+Enter adds a line, Esc cancels, blur
 * saves. It keeps the text it opened with while others' saves arrive, and merges with them on save.
 */
function InlineEditor({
  node,
  saved,
  save,
}: {
  node: NodeApi<TreeItem>;
  saved: string;
  save: (edit: RequirementEdit) => void;
}) {
  const { draft, change, finish: finishDraft } = useRequirementDraft(node.id, saved, { follow: false });
  const ref = useRef<HTMLTextAreaElement>(null);
  const done = useRef(false);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  /** Enter saves and returns focus to the tree; Esc cancels; a blur saves and leaves focus where the user put it. */
  function finish(how: "enter" | "blur" | "cancel") {
    if (done.current) return;
    done.current = true;
    // Not node.submit()/reset(): they re-focus the tree from a timer, which re-renders every row once
    // more and takes the focus back from wherever a blur put it. Leaving edit mode is enough: the
    // row takes the focus back by itself when the tree still has it (Enter, Esc).
    const edit = how === "cancel" ? null : finishDraft();
    if (edit) save(edit);
    node.tree.dispatch({ type: "EDIT", id: null });
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    e.stopPropagation();
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      finish("enter");
    } else if (e.key === "Escape") {
      e.preventDefault();
      finish("cancel");
    }
  }

  return (
    <span className="relative min-w-0 flex-1 self-start pt-[3px]">
      <textarea
        ref={ref}
        data-testid="inline-editor"
        data-editing-key={node.id}
        aria-label="Requirements"
        value={draft}
        rows={1}
        spellCheck
        onChange={(e) => change(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => finish("blur")}
        onClick={(e) => e.stopPropagation()}
        onDoubleClick={(e) => e.stopPropagation()}
        // One row tall, so that it never covers the row below: further lines scroll inside it (the
        // inspector shows the whole text).
        className="absolute inset-x-0 top-[3px] z-20 block h-7 w-full resize-none overflow-y-auto rounded-md border border-indigo-400 bg-white px-2 py-[3px] text-sm leading-5 text-zinc-900 shadow-lg ring-2 ring-indigo-200 outline-none"
        placeholder="What must the submission do? (Enter saves, Shift+Enter adds a line, Esc cancels)"
      />
    </span>
  );
}
