"use client";

import { ChevronRight, CircleAlert, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { LINT_LABELS, type LintFinding } from "@/lib/rubric/editor-lint";
import { groupByCode } from "@/lib/rubric/lint-dismissals";
import { shortText } from "@/lib/short-text";

/** The paper page's share of the rubric's lint (`server/rubrics/rubric-lint.ts`). */
export interface RubricLintView {
  findings: (LintFinding & { requirements: string })[];
  dismissedCount: number;
}

// An open group lists this many; the editor lists them all.
const SHOWN = 50;

const plural = (n: number, one: string) => `${n.toLocaleString("en")} ${n === 1 ? one : `${one}s`}`;

/**
 * The rubric's lint on the paper page: the editor's rules and count (dismissed warnings left out),
 * grouped by rule with counts; a group opens to its findings. The editor is where they are fixed
 * or dismissed.
 */
export function RubricLintSummary({ paperId, lint }: { paperId: string; lint: RubricLintView }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const { findings, dismissedCount } = lint;
  if (findings.length === 0 && dismissedCount === 0) return null;
  const errors = findings.filter((f) => f.severity === "error").length;
  const warnings = findings.length - errors;
  const groups = groupByCode(findings);
  return (
    <section className="rounded-md border border-zinc-200 text-sm" data-testid="rubric-lint" aria-label="Lint">
      <header className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-zinc-100 px-3 py-2">
        <h3 className="font-medium text-zinc-900">Lint</h3>
        <span
          data-testid="rubric-lint-count"
          className={errors ? "text-red-700" : warnings ? "text-amber-800" : "text-zinc-600"}
        >
          {findings.length === 0
            ? "no problems left"
            : [errors ? plural(errors, "error") : null, warnings ? plural(warnings, "warning") : null]
                .filter(Boolean)
                .join(" · ")}
        </span>
        {dismissedCount > 0 && (
          <span className="text-zinc-500" data-testid="rubric-lint-dismissed">
            · {dismissedCount.toLocaleString("en")} dismissed
          </span>
        )}
        <Link
          href={`/papers/${paperId}/rubric`}
          className="ml-auto text-xs font-medium text-indigo-700 hover:underline"
        >
          Fix or dismiss in the editor
        </Link>
      </header>
      {groups.length > 0 && (
        <ul className="divide-y divide-zinc-100">
          {groups.map(({ code, severity, items }) => {
            const isOpen = open.has(code);
            return (
              <li key={code} data-testid="rubric-lint-group" data-code={code}>
                <button
                  type="button"
                  aria-expanded={isOpen}
                  onClick={() =>
                    setOpen((prev) => {
                      const next = new Set(prev);
                      if (isOpen) next.delete(code);
                      else next.add(code);
                      return next;
                    })
                  }
                  className="flex w-full items-center gap-1.5 px-3 py-1.5 text-left hover:bg-zinc-50"
                >
                  <ChevronRight
                    size={14}
                    className={`shrink-0 text-zinc-500 transition-transform ${isOpen ? "rotate-90" : ""}`}
                    aria-hidden
                  />
                  {severity === "error" ? (
                    <CircleAlert size={13} className="shrink-0 text-red-600" aria-hidden />
                  ) : (
                    <TriangleAlert size={13} className="shrink-0 text-amber-600" aria-hidden />
                  )}
                  <span className="min-w-0 truncate text-zinc-900">{LINT_LABELS[code]}</span>
                  <span
                    className="ml-auto shrink-0 rounded-full bg-zinc-100 px-1.5 text-[11px] tabular-nums text-zinc-600"
                    data-testid="rubric-lint-group-count"
                  >
                    {items.length.toLocaleString("en")}
                  </span>
                </button>
                {isOpen && (
                  <ul className="space-y-1 px-3 pb-2 pl-9 text-xs" data-testid="rubric-lint-items">
                    {items.slice(0, SHOWN).map((f, i) => (
                      <li key={`${f.key}:${i}`}>
                        <span className="text-zinc-900">{f.message}</span>
                        <span className="block truncate text-zinc-500">
                          {shortText(f.requirements, 140) || "(no requirement text)"}
                        </span>
                      </li>
                    ))}
                    {items.length > SHOWN && (
                      <li className="text-zinc-500">
                        … and {(items.length - SHOWN).toLocaleString("en")} more in the editor
                      </li>
                    )}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
