"use client";

import { MathText } from "@/components/ui/math-text";
import { ChevronRight } from "lucide-react";
import { memo, useMemo } from "react";
import type { LintFinding } from "@/lib/rubric/editor-lint";
import type { RubricOperation } from "@/lib/rubric/operations";
import { formatShare, leafCountBelow, subtreeShareByCategory } from "@/lib/rubric/shares";
import type { TreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { FINEGRAINED_TASK_CATEGORIES, TASK_CATEGORIES } from "@/lib/rubric/types";
import { CategorySelect, IdField, RequirementsField, WeightField, type Update } from "./inspector-fields";
import type { SubmitOptions, SubmitResult } from "./rubric-store-types";
import { ShareBreakdown } from "./share-breakdown";
import { submitRequirementEdit } from "./use-requirement-draft";

export interface InspectorProps {
  row: NodeRow;
  index: TreeIndex;
  shares: Map<string, number>;
  findings: readonly LintFinding[];
  canEdit: boolean;
  submit(op: RubricOperation, options: SubmitOptions): SubmitResult;
  onSelect(key: string): void;
}

/** The selected node's fields and figures. Text is edited locally and sent on blur, so typing never re-renders the tree. */
export const Inspector = memo(function Inspector({
  row,
  index,
  shares,
  findings,
  canEdit,
  submit,
  onSelect,
}: InspectorProps) {
  const share = shares.get(row.key) ?? 0;
  const leaf = index.isLeaf(row.key);
  const kids = index.children(row.key);
  const parent = index.parentOf(row.key);
  const leaves = useMemo(() => leafCountBelow(index, row.key), [index, row.key]);
  const byCategory = useMemo(() => subtreeShareByCategory(index, shares, row.key), [index, shares, row.key]);
  const siblingSum = parent ? index.children(parent.key).reduce((s, r) => s + r.weight, 0) : row.weight;

  const path = useMemo(() => {
    const out: NodeRow[] = [];
    let p = index.parentOf(row.key);
    while (p) {
      out.unshift(p);
      p = index.parentOf(p.key);
    }
    return out;
  }, [index, row.key]);

  const update: Update = (fields, label, onError) =>
    submit({ kind: "update", key: row.key, fields }, { label, onError });

  return (
    <div
      className="flex flex-col gap-4"
      data-testid="inspector"
      data-key={row.key}
      data-editing-key={canEdit ? row.key : undefined}
    >
      {path.length > 0 && (
        <nav aria-label="Path" className="flex flex-wrap items-center gap-0.5 text-[11px] text-zinc-500">
          {path.map((p) => (
            <span key={p.key} className="flex min-w-0 items-center gap-0.5">
              <button
                type="button"
                onClick={() => onSelect(p.key)}
                className="max-w-36 truncate rounded px-1 hover:bg-zinc-100 hover:text-indigo-700"
                title={p.requirements}
              >
                {p.requirements.trim() ? <MathText text={p.requirements} /> : "(empty)"}
              </button>
              <ChevronRight size={11} className="shrink-0 text-zinc-300" />
            </span>
          ))}
        </nav>
      )}

      <div className="grid grid-cols-3 gap-2" data-testid="inspector-figures">
        <Figure label="Share of score" testId="inspector-share" value={formatShare(share)} strong />
        <Figure
          label="Leaves below"
          testId="inspector-leaves"
          value={leaves.toLocaleString("en")}
          title={leaf ? "A leaf counts itself" : undefined}
        />
        <Figure
          label="Of siblings"
          value={siblingSum > 0 ? formatShare(row.weight / siblingSum) : "0%"}
          title="This node's weight divided by the sum of its siblings' weights"
        />
      </div>

      <RequirementsField
        key={`req-${row.key}`}
        row={row}
        canEdit={canEdit}
        save={(edit, onError) => submitRequirementEdit(submit, edit, onError)}
      />

      <div className="grid grid-cols-2 gap-3">
        <WeightField key={`w-${row.key}`} row={row} canEdit={canEdit} update={update} />
        <div className="space-y-1">
          <span className="text-xs font-medium text-zinc-700">Sub-tasks</span>
          <p className="py-1.5 text-sm text-zinc-700">
            {kids.length === 0 ? "none (leaf)" : kids.length.toLocaleString("en")}
          </p>
        </div>
      </div>

      <CategorySelect
        label="Task category"
        testId="inspector-category"
        value={row.taskCategory}
        options={TASK_CATEGORIES}
        canEdit={canEdit}
        hint={
          leaf
            ? row.taskCategory === null
              ? "A leaf needs one"
              : undefined
            : row.taskCategory !== null
              ? "A node with sub-tasks should have none"
              : undefined
        }
        onChange={(v) => update({ taskCategory: v }, "Change task category")}
      />
      <CategorySelect
        label="Fine-grained category"
        testId="inspector-finegrained"
        value={row.finegrainedTaskCategory}
        options={FINEGRAINED_TASK_CATEGORIES}
        canEdit={canEdit}
        onChange={(v) => update({ finegrainedTaskCategory: v }, "Change fine-grained category")}
      />

      <IdField nodeId={row.nodeId} />

      {findings.length > 0 && (
        <section aria-label="Problems with this node" className="space-y-1.5">
          <h3 className="text-xs font-medium text-zinc-700">Problems</h3>
          <ul className="space-y-1" data-testid="inspector-lint">
            {findings.map((f, i) => (
              <li key={i} className="flex gap-2 text-xs text-zinc-700">
                <span
                  className={`mt-1 size-2 shrink-0 rounded-full ${f.severity === "error" ? "bg-red-500" : "bg-amber-400"}`}
                  aria-hidden
                />
                <span>
                  <span className="sr-only">{f.severity}: </span>
                  {f.message}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <ShareBreakdown byCategory={byCategory} total={share} leaf={leaf} />
    </div>
  );
});

function Figure({
  label,
  value,
  strong,
  testId,
  title,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
  title?: string;
}) {
  return (
    <div className="rounded-md border border-zinc-200 bg-zinc-50/60 px-2.5 py-1.5" title={title}>
      <div className="text-[10px] font-medium uppercase tracking-wide text-zinc-500">{label}</div>
      <div
        data-testid={testId}
        className={`font-mono tabular-nums ${strong ? "text-base font-semibold text-indigo-700" : "text-sm text-zinc-800"}`}
      >
        {value}
      </div>
    </div>
  );
}
