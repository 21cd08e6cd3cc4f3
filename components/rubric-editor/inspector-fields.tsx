"use client";

import { FormError } from "@/components/ui/field";
import { MathText } from "@/components/ui/math-text";
import { mathRanges, mayHoldMath } from "@/lib/math";
import { RUBRIC_LIMITS } from "@/lib/rubric/limits";
import { Check, Copy } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import type { NodeFields } from "@/lib/rubric/operations";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import type { SubmitResult } from "./rubric-store-types";
import { useRequirementDraft, type RequirementEdit } from "./use-requirement-draft";

/** The inspector's fields: requirements, weight, categories, PaperBench id. */

const control =
  "w-full rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm shadow-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 aria-invalid:border-red-500 disabled:bg-zinc-50 disabled:text-zinc-600 read-only:bg-zinc-50";

/** Changes the node's other fields; its requirement text is saved only through `submitRequirementEdit`, with its merge base. */
export type Update = (
  fields: Partial<Omit<NodeFields, "requirements">>,
  label: string,
  onError?: (m: string) => void,
) => SubmitResult;

export function RequirementsField({
  row,
  canEdit,
  save,
}: {
  row: NodeRow;
  canEdit: boolean;
  save: (edit: RequirementEdit, onError?: (m: string) => void) => void;
}) {
  const id = useId();
  const { draft, change, finish, keep, cancel } = useRequirementDraft(row.key, row.requirements, { follow: true });
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  const latest = useRef({ finish, save });
  latest.current = { finish, save };

  // Leaving the node (or the page) with text typed here and not saved saves it.
  useEffect(
    () => () => {
      const edit = canEdit ? latest.current.finish() : null;
      if (edit) latest.current.save(edit);
    },
    [canEdit],
  );

  function commit() {
    if (!canEdit) return;
    const edit = finish();
    if (!edit) return;
    setError(null);
    // Refused (a limit, a conflict): the text stays in the field, with why beside it.
    save(edit, (m) => {
      setError(m);
      keep(edit);
    });
  }

  return (
    <div className="space-y-1">
      <label htmlFor={id} className="flex items-baseline justify-between gap-3 text-xs font-medium text-zinc-700">
        Requirements
        {canEdit && draft !== row.requirements && (
          <span className="text-right font-normal text-zinc-400">unsaved · Ctrl+Enter or leave the field to save</span>
        )}
      </label>
      <textarea
        id={id}
        ref={ref}
        data-testid="inspector-requirements"
        value={draft}
        readOnly={!canEdit}
        rows={6}
        aria-invalid={error ? true : undefined}
        onChange={(e) => change(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            commit();
          } else if (e.key === "Escape") {
            e.preventDefault();
            cancel();
            setError(null);
            e.currentTarget.blur();
          }
        }}
        className={`${control} min-h-24 resize-y leading-5`}
        placeholder={canEdit ? "What must the submission do to pass this node?" : ""}
      />
      {/* The text is plain TeX while typed; its formulas as they will read (KaTeX) below it. */}
      {mayHoldMath(draft) && mathRanges(draft).length > 0 && (
        <div
          className="rounded-md border border-zinc-200 bg-zinc-50 px-2.5 py-1.5 text-sm leading-6 text-zinc-900"
          data-testid="inspector-requirements-math"
        >
          <span className="mb-0.5 block text-[10px] font-semibold uppercase tracking-wide text-zinc-400">
            {canEdit ? "Preview" : "Rendered"}
          </span>
          <MathText text={draft} className="whitespace-pre-wrap break-words" />
        </div>
      )}
      <FormError error={error} />
      <CharacterCount length={draft.length} />
    </div>
  );
}

/** The text's length once it nears the limit, so that nobody learns of the limit only from a refusal. */
function CharacterCount({ length }: { length: number }) {
  const max = RUBRIC_LIMITS.maxRequirementsLength;
  if (length < max * 0.9) return null;
  return (
    <p
      data-testid="requirements-count"
      className={`text-right text-xs tabular-nums ${length > max ? "font-medium text-red-700" : "text-amber-700"}`}
    >
      {length.toLocaleString("en")} / {max.toLocaleString("en")} characters
    </p>
  );
}

function parseWeight(text: string): { value: number } | { error: string } {
  const t = text.trim();
  if (t === "") return { error: "Enter a weight (0 or more)" };
  const v = Number(t);
  if (!Number.isFinite(v)) return { error: "The weight must be a number" };
  if (v < 0) return { error: "The weight cannot be negative" };
  return { value: v };
}

export function WeightField({ row, canEdit, update }: { row: NodeRow; canEdit: boolean; update: Update }) {
  const id = useId();
  const [draft, setDraft] = useState(String(row.weight));
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (document.activeElement !== ref.current) setDraft(String(row.weight));
  }, [row.weight]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  function commit(text: string) {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const parsed = parseWeight(text);
    if ("error" in parsed) {
      setError(parsed.error);
      return;
    }
    setError(null);
    if (parsed.value !== row.weight) update({ weight: parsed.value }, "Change weight", (m) => setError(m));
  }

  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-700">
        Weight
      </label>
      <input
        id={id}
        ref={ref}
        data-testid="inspector-weight"
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        value={draft}
        readOnly={!canEdit}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          const text = e.target.value;
          setDraft(text);
          const parsed = parseWeight(text);
          if ("error" in parsed) {
            // Say it at once for a negative value; an empty field may just be mid-typing.
            setError(text.trim().startsWith("-") ? parsed.error : null);
            if (timer.current) clearTimeout(timer.current);
            return;
          }
          setError(null);
          if (timer.current) clearTimeout(timer.current);
          // Steps from the arrows apply at once; typing settles first.
          const native = e.nativeEvent as InputEvent;
          if (!native.inputType) commit(text);
          else timer.current = setTimeout(() => commit(text), 600);
        }}
        onBlur={() => (canEdit ? commit(draft) : undefined)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit(draft);
          } else if (e.key === "Escape") {
            setDraft(String(row.weight));
            setError(null);
          }
        }}
        className={`${control} font-mono tabular-nums`}
      />
      {error && (
        <p id={`${id}-error`} role="alert" data-testid="weight-error" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function CategorySelect({
  label,
  value,
  options,
  canEdit,
  onChange,
  hint,
  testId,
}: {
  label: string;
  value: string | null;
  options: readonly string[];
  canEdit: boolean;
  onChange(value: string | null): void;
  hint?: string;
  testId: string;
}) {
  const id = useId();
  const unknown = value !== null && !options.includes(value);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="flex items-baseline justify-between text-xs font-medium text-zinc-700">
        {label}
        {hint && <span className="font-normal text-amber-700">{hint}</span>}
      </label>
      <select
        id={id}
        data-testid={testId}
        value={value ?? ""}
        disabled={!canEdit}
        onChange={(e) => onChange(e.target.value === "" ? null : e.target.value)}
        className={control}
      >
        <option value="">None</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
        {unknown && <option value={value}>{`Unknown: ${value}`}</option>}
      </select>
    </div>
  );
}

export function IdField({ nodeId }: { nodeId: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(nodeId);
    } catch {
      const el = document.getElementById(id) as HTMLInputElement | null;
      el?.select();
      document.execCommand("copy");
    }
    setCopied(true);
  }
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-700">
        PaperBench id
      </label>
      <div className="flex gap-1.5">
        <input
          id={id}
          data-testid="inspector-node-id"
          readOnly
          value={nodeId}
          className={`${control} font-mono text-xs text-zinc-600`}
          onFocus={(e) => e.target.select()}
        />
        <button
          type="button"
          onClick={copy}
          aria-label="Copy PaperBench id"
          title="Copy PaperBench id"
          className="inline-flex shrink-0 items-center gap-1 rounded-md border border-zinc-300 bg-white px-2 text-xs text-zinc-700 hover:bg-zinc-50"
        >
          {copied ? <Check size={14} className="text-emerald-600" /> : <Copy size={14} />}
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
