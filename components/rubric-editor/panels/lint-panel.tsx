"use client";

import { ChevronRight, CircleAlert, CircleCheck, EyeOff, TriangleAlert } from "lucide-react";
import { useState, type KeyboardEvent } from "react";
import { LINT_LABELS, type LintCode, type LintFinding } from "@/lib/rubric/editor-lint";
import { groupByCode } from "@/lib/rubric/lint-dismissals";
import type { RubricOperation } from "@/lib/rubric/operations";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import type { Derived } from "../derive";
import type { SubmitOptions, SubmitResult } from "../rubric-store-types";
import { DismissForm, DismissedList } from "./lint-dismissals";
import { EmptyState, PanelFrame, plural, truncateText } from "./panel-ui";

export function lintCodeLabel(code: string): string {
  const known = (LINT_LABELS as Record<string, string | undefined>)[code];
  if (known) return known;
  const words = code.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How many items an open group shows before "Show more". */
const PAGE = 100;
/** A group this small starts open: its findings are a to-do list, a bigger one a pattern to judge first. */
const OPEN_UP_TO = 10;

type Submit = (op: RubricOperation, options: SubmitOptions) => SubmitResult;

/**
 * The editor's lint findings, less the dismissed ones, grouped by rule (errors first) with counts;
 * a group opens to its findings, each of which jumps to its node (click or Enter; arrow keys move
 * between findings). A warning can be dismissed for its whole rule or one node, with a reason (a
 * rubric operation: in the history, live for co-editors, undone by Undo or "Bring back").
 */
export function LintPanel({
  derived,
  canEdit,
  submit,
  onSelect,
}: {
  derived: Derived;
  canEdit: boolean;
  submit: Submit;
  onSelect(key: string): void;
}) {
  const { findings, dismissed, dismissals, index } = derived;
  // Groups opened or closed by hand (the others follow OPEN_UP_TO).
  const [toggled, setToggled] = useState<ReadonlyMap<LintCode, boolean>>(new Map());
  const [shown, setShown] = useState<Partial<Record<LintCode, number>>>({});
  // The dismissal being written: a whole rule (key null) or one node's finding.
  const [dismissing, setDismissing] = useState<{ code: LintCode; key: string | null } | null>(null);

  const groups = groupByCode(findings);
  const errorCount = findings.reduce((n, f) => n + (f.severity === "error" ? 1 : 0), 0);
  const warningCount = findings.length - errorCount;

  function toggle(code: LintCode, isOpen: boolean) {
    setToggled((prev) => new Map(prev).set(code, !isOpen));
  }

  function onListKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp" && e.key !== "Home" && e.key !== "End") return;
    const items = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[data-testid="lint-item"]')];
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === "Home"
        ? 0
        : e.key === "End"
          ? items.length - 1
          : e.key === "ArrowDown"
            ? Math.min(items.length - 1, at + 1)
            : Math.max(0, at - 1);
    e.preventDefault();
    items[next]?.focus();
  }

  return (
    <PanelFrame
      title="Problems"
      testId="lint-panel"
      subtitle={
        (findings.length > 0 || dismissed.length > 0) && (
          <span className="flex items-center gap-2" data-testid="lint-counts">
            <span className={errorCount ? "font-medium text-red-700" : ""}>{plural(errorCount, "error")}</span>
            <span className="text-zinc-300">·</span>
            <span className={warningCount ? "font-medium text-amber-700" : ""}>{plural(warningCount, "warning")}</span>
            {dismissed.length > 0 && (
              <>
                <span className="text-zinc-300">·</span>
                <span data-testid="lint-dismissed-count">{dismissed.length.toLocaleString("en")} dismissed</span>
              </>
            )}
          </span>
        )
      }
    >
      {findings.length === 0 ? (
        <EmptyState testId="lint-empty" icon={<CircleCheck size={22} className="text-emerald-600" aria-hidden />}>
          {dismissed.length > 0
            ? "No problems left: the remaining warnings are dismissed"
            : "No problems: this rubric follows PaperBench\u2019s rules"}
        </EmptyState>
      ) : (
        <div className="space-y-2" onKeyDown={onListKeyDown}>
          {groups.map(({ code, severity, items }) => {
            const isOpen = toggled.get(code) ?? items.length <= OPEN_UP_TO;
            const limit = shown[code] ?? PAGE;
            const error = severity === "error";
            return (
              <section
                key={code}
                data-testid="lint-group"
                data-code={code}
                data-severity={severity}
                className="rounded-md border border-zinc-200 bg-white"
              >
                <div className="flex items-center gap-1 pr-1.5">
                  <button
                    type="button"
                    aria-expanded={isOpen}
                    onClick={() => toggle(code, isOpen)}
                    className="flex min-w-0 flex-1 items-center gap-1.5 rounded-md px-2 py-1.5 text-left text-[13px] font-medium text-zinc-900 hover:bg-zinc-50"
                  >
                    <ChevronRight
                      size={14}
                      className={`shrink-0 text-zinc-500 transition-transform ${isOpen ? "rotate-90" : ""}`}
                      aria-hidden
                    />
                    {error ? (
                      <CircleAlert size={13} className="shrink-0 text-red-600" aria-hidden />
                    ) : (
                      <TriangleAlert size={13} className="shrink-0 text-amber-600" aria-hidden />
                    )}
                    <span className="min-w-0 truncate" title={code}>
                      {lintCodeLabel(code)}
                    </span>
                    <span
                      data-testid="lint-group-count"
                      className="ml-auto shrink-0 rounded-full bg-zinc-100 px-1.5 text-[11px] tabular-nums text-zinc-600"
                    >
                      {items.length.toLocaleString("en")}
                    </span>
                  </button>
                  {canEdit && !error && (
                    <button
                      type="button"
                      data-testid="lint-dismiss-rule"
                      className="shrink-0 rounded px-1.5 py-1 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                      title="Dismiss every finding of this rule"
                      onClick={() => setDismissing({ code, key: null })}
                    >
                      Dismiss all
                    </button>
                  )}
                </div>
                {dismissing?.code === code && dismissing.key === null && (
                  <div className="border-t border-zinc-100 p-2">
                    <DismissForm
                      what={`all ${plural(items.length, "finding")} of “${lintCodeLabel(code)}”`}
                      target={dismissing}
                      submit={submit}
                      onDone={() => setDismissing(null)}
                    />
                  </div>
                )}
                {isOpen && (
                  <>
                    <ul className="divide-y divide-zinc-100 border-t border-zinc-100">
                      {items.slice(0, limit).map((f, i) => (
                        <li key={`${f.key}:${i}`}>
                          <FindingItem
                            finding={f}
                            index={index}
                            onSelect={onSelect}
                            onDismiss={canEdit && !error ? () => setDismissing({ code, key: f.key }) : null}
                          />
                          {dismissing?.code === code && dismissing.key === f.key && (
                            <div className="px-2.5 pb-2">
                              <DismissForm
                                what="this finding"
                                target={dismissing}
                                submit={submit}
                                onDone={() => setDismissing(null)}
                              />
                            </div>
                          )}
                        </li>
                      ))}
                    </ul>
                    {items.length > limit && (
                      <button
                        type="button"
                        className="mx-2.5 mb-1.5 text-xs font-medium text-indigo-700 hover:underline"
                        onClick={() => setShown((s) => ({ ...s, [code]: limit + PAGE }))}
                      >
                        Show {Math.min(PAGE, items.length - limit).toLocaleString("en")} more of{" "}
                        {(items.length - limit).toLocaleString("en")}
                      </button>
                    )}
                  </>
                )}
              </section>
            );
          })}
        </div>
      )}
      {dismissals.length > 0 && (
        <DismissedList
          dismissals={dismissals}
          dismissed={dismissed}
          index={index}
          canEdit={canEdit}
          submit={submit}
          onSelect={onSelect}
        />
      )}
    </PanelFrame>
  );
}

function FindingItem({
  finding,
  index,
  onSelect,
  onDismiss,
}: {
  finding: LintFinding;
  index: TreeIndex;
  onSelect(key: string): void;
  onDismiss: (() => void) | null;
}) {
  const error = finding.severity === "error";
  const requirements = index.byKey.get(finding.key)?.requirements;
  return (
    <div className="group flex items-start hover:bg-indigo-50/60">
      <button
        type="button"
        data-testid="lint-item"
        data-key={finding.key}
        data-code={finding.code}
        data-severity={finding.severity}
        onClick={() => onSelect(finding.key)}
        className="flex min-w-0 flex-1 items-start gap-2 px-2.5 py-1.5 text-left focus-visible:bg-indigo-50 focus-visible:outline-none"
        title="Go to this node"
      >
        <span
          className={`mt-1.5 size-1.5 shrink-0 rounded-full ${error ? "bg-red-500" : "bg-amber-500"}`}
          aria-hidden
        />
        <span className="min-w-0 flex-1">
          <span className="block text-[13px] leading-snug text-zinc-900">{finding.message}</span>
          <span className="block truncate text-xs text-zinc-500 group-hover:text-zinc-700">
            {requirements === undefined ? "(node no longer in the tree)" : truncateText(requirements, 140)}
          </span>
        </span>
        <span className="sr-only">{error ? "error" : "warning"}</span>
      </button>
      {onDismiss && (
        <button
          type="button"
          data-testid="lint-dismiss-node"
          aria-label="Dismiss this finding"
          title="Dismiss this finding"
          onClick={onDismiss}
          className="mr-1 mt-1 shrink-0 rounded p-1 text-zinc-400 opacity-0 hover:bg-zinc-100 hover:text-zinc-800 focus-visible:opacity-100 group-hover:opacity-100"
        >
          <EyeOff size={13} aria-hidden />
        </button>
      )}
    </div>
  );
}
