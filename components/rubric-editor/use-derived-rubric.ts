"use client";

import { startTransition, useEffect, useMemo, useRef, useState } from "react";
import type { LintDismissal } from "@/lib/rubric/lint-dismissals";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { derive, deriveCore, deriveLint, type Derived, type DerivedCore, type DerivedLint } from "./derive";

const EMPTY_DERIVED: Derived = derive([]);

/** The longest the lint lags behind the shown rows while a change waits for the server's answer. */
const LINT_LAG_MS = 300;

/**
 * What the editor shows of the rows: the core (index, shares, tree data) at once, the lint later,
 * so an edit shows before the rubric is linted again. The lint follows the rows once no change is
 * waiting for the server (`pendingCount` 0), in a transition, or `LINT_LAG_MS` after a change that
 * is still waiting: linting 2,500 nodes while the answer arrives kept "Saved" waiting behind it.
 * `error` says why the rows could not be read (the core is then empty). The lint leaves out what
 * `dismissals` hide.
 */
export function useDerivedRubric(
  rows: readonly NodeRow[],
  dismissals: readonly LintDismissal[],
  pendingCount: number,
): { derived: Derived; error: string | null } {
  // Cores by rows: the previous one lets a field edit keep react-arborist's data (see `deriveCore`),
  // and the deferred lint finds the core of the rows it lags on.
  const cores = useRef(new WeakMap<readonly NodeRow[], DerivedCore>());
  const previous = useRef<DerivedCore | null>(null);
  const modelMarked = useRef(false);
  const coreResult = useMemo((): { core: DerivedCore; error: string | null } => {
    try {
      const core = deriveCore(rows, previous.current);
      // The first tree model built: a phase of the open (the editor bench reads it).
      if (rows.length > 0 && !modelMarked.current) {
        modelMarked.current = true;
        performance.mark("editor:model");
      }
      previous.current = core;
      cores.current.set(rows, core);
      return { core, error: null };
    } catch (err) {
      return { core: EMPTY_DERIVED, error: err instanceof Error ? err.message : String(err) };
    }
  }, [rows]);
  const lintRows = useLintRows(rows, pendingCount);
  // The lint last shown: an unchanged lint is handed back as it was (see `deriveLint`).
  const previousLint = useRef<DerivedLint | null>(null);
  const lint = useMemo((): DerivedLint => {
    try {
      const next = deriveLint(cores.current.get(lintRows) ?? deriveCore(lintRows), dismissals, previousLint.current);
      previousLint.current = next;
      return next;
    } catch {
      return EMPTY_DERIVED;
    }
  }, [lintRows, dismissals]);
  const derived = useMemo((): Derived => ({ ...coreResult.core, ...lint }), [coreResult.core, lint]);
  return { derived, error: coreResult.error };
}

/** The rows the lint runs on: `rows` once no change waits for its answer, else at most `LINT_LAG_MS` later. */
function useLintRows(rows: readonly NodeRow[], pendingCount: number): readonly NodeRow[] {
  const [lintRows, setLintRows] = useState(rows);
  const settled = pendingCount === 0;
  useEffect(() => {
    const follow = () => startTransition(() => setLintRows(rows));
    if (settled) return follow();
    const timer = setTimeout(follow, LINT_LAG_MS);
    return () => clearTimeout(timer);
  }, [rows, settled]);
  return lintRows;
}
