/**
 * Dismissed lint findings: a warning someone looked at and decided to keep, with why. A dismissal
 * names a rule (every finding of the code) or one node's finding of it. They are rubric operations
 * (`dismiss`, `undismiss` in `operations.ts`, their rules in `operation-rules.ts`), so they are in
 * the rubric's history, reach co-editors live and are undone like any change. Errors break a
 * PaperBench rule and block the export: they are fixed (or exported anyway), never dismissed.
 * The editor and the paper page both count what `splitDismissed` leaves. Pure.
 */
import { LINT_CODES, LINT_SEVERITY, type LintCode, type LintFinding } from "./editor-lint";

/** The codes a dismissal may name: the warnings. */
export const DISMISSABLE_CODES = LINT_CODES.filter((c) => LINT_SEVERITY[c] === "warning") as [LintCode, ...LintCode[]];

export interface LintDismissal {
  code: LintCode;
  /** The node's key; null for the whole rule. */
  key: string | null;
  reason: string;
  /** The revision that dismissed it. */
  revision: number;
  /** Who dismissed it (name or email); null when unknown. */
  by: string | null;
}

/** The findings left to show and the ones a dismissal hides, both in the order given. */
export function splitDismissed(
  findings: readonly LintFinding[],
  dismissals: readonly Pick<LintDismissal, "code" | "key">[],
): { active: LintFinding[]; dismissed: LintFinding[] } {
  if (dismissals.length === 0) return { active: findings as LintFinding[], dismissed: [] };
  const rules = new Set<string>();
  const nodes = new Set<string>();
  for (const d of dismissals) {
    if (d.key === null) rules.add(d.code);
    else nodes.add(`${d.code} ${d.key}`);
  }
  const active: LintFinding[] = [];
  const dismissed: LintFinding[] = [];
  for (const f of findings) {
    const hidden = f.severity === "warning" && (rules.has(f.code) || nodes.has(`${f.code} ${f.key}`));
    (hidden ? dismissed : active).push(f);
  }
  return { active, dismissed };
}

/** Findings per code, most first (errors before warnings): the groups of a lint list. */
export function groupByCode<F extends Pick<LintFinding, "code" | "severity">>(
  findings: readonly F[],
): { code: LintCode; severity: LintFinding["severity"]; items: F[] }[] {
  const groups = new Map<LintCode, { code: LintCode; severity: LintFinding["severity"]; items: F[] }>();
  for (const f of findings) {
    const g = groups.get(f.code);
    if (g) g.items.push(f);
    else groups.set(f.code, { code: f.code, severity: f.severity, items: [f] });
  }
  return [...groups.values()].sort((a, b) =>
    a.severity === b.severity ? b.items.length - a.items.length : a.severity === "error" ? -1 : 1,
  );
}
