/**
 * Everything the editor shows that follows from the rows: the index, every node's share of the
 * final score, the lint findings, and the nested data react-arborist renders. Computed once per
 * identity of the shown rows (the store keeps that identity until something changes).
 */
import { lintRubric, type LintFinding } from "@/lib/rubric/editor-lint";
import { splitDismissed, type LintDismissal } from "@/lib/rubric/lint-dismissals";
import { effectiveShares } from "@/lib/rubric/shares";
import { buildTreeIndex, withReplacedRows, type TreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";

/**
 * One node as react-arborist sees it: structure only. Every node has a `children` array (possibly
 * empty) so that a leaf accepts a drop "into" it, which makes it a parent. The fields are read from
 * the index by key, so that an edit of a field keeps these objects (and react-arborist does not
 * rebuild its 2,500 nodes on every keystroke-sized change).
 */
export interface TreeItem {
  id: string;
  isRoot: boolean;
  children: TreeItem[];
}

export interface LintSummary {
  errors: number;
  warnings: number;
  worst: "error" | "warning";
  messages: string;
}

/** What follows from the rows' structure and weights: needed to draw the tree at all. */
export interface DerivedCore {
  rows: readonly NodeRow[];
  index: TreeIndex;
  shares: Map<string, number>;
  data: TreeItem[];
  /** Largest depth (the root is 0). */
  maxDepth: number;
}

/** The lint findings: computed a frame later than the core (React's deferred value), so an edit shows at once. */
export interface DerivedLint {
  /** The findings less the dismissed ones: what the tree, the inspector and the counts show. */
  findings: LintFinding[];
  /** The findings a dismissal hides. */
  dismissed: LintFinding[];
  dismissals: readonly LintDismissal[];
  lintByKey: Map<string, LintSummary>;
}

export type Derived = DerivedCore & DerivedLint;

/** The most rows an edit may change for the index to be patched rather than built anew. */
const PATCH_LIMIT = 64;

/**
 * The rows of `b` that differ from `a`'s in their fields only, when `b` has the same nodes under
 * the same parents in the same order as `a`; null when the structure differs. At most
 * `PATCH_LIMIT + 1` rows are collected (beyond it the index is built anew anyway).
 */
function fieldChanges(a: readonly NodeRow[], b: readonly NodeRow[]): NodeRow[] | null {
  if (a.length !== b.length) return null;
  const changed: NodeRow[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x.key !== y.key || x.parentKey !== y.parentKey || x.position !== y.position) return null;
    if (changed.length <= PATCH_LIMIT) changed.push(y);
  }
  return changed;
}

/**
 * Index, shares and tree data for `rows`; `previous` lets an edit that moves nothing keep the tree
 * data, patch the index (`withReplacedRows`) and, when no weight changed, keep the shares: an edit
 * on a 2,500-node rubric then costs a copy of the key map, not a rebuild.
 */
export function deriveCore(rows: readonly NodeRow[], previous?: DerivedCore | null): DerivedCore {
  const changed = previous ? fieldChanges(previous.rows, rows) : null;
  if (previous && changed) {
    const kept = { rows, data: previous.data, maxDepth: previous.maxDepth };
    // Past the limit not every changed row was collected: index and shares anew.
    if (changed.length > PATCH_LIMIT) {
      const index = buildTreeIndex(rows);
      return { ...kept, index, shares: effectiveShares(index) };
    }
    const index =
      changed.length === 0 ? previous.index : (withReplacedRows(previous.index, changed) ?? buildTreeIndex(rows));
    const weighed = changed.some((row) => previous.index.byKey.get(row.key)?.weight !== row.weight);
    return { ...kept, index, shares: weighed ? effectiveShares(index) : previous.shares };
  }
  const index = buildTreeIndex(rows);
  const shares = effectiveShares(index);
  // Pre-order: a parent's item exists before its children's.
  const items = new Map<string, TreeItem>();
  const data: TreeItem[] = [];
  let maxDepth = 0;
  for (const row of index.preorder) {
    const item: TreeItem = { id: row.key, isRoot: row.parentKey === null, children: [] };
    items.set(row.key, item);
    if (row.parentKey === null) data.push(item);
    else items.get(row.parentKey)?.children.push(item);
    const d = index.depthOf(row.key);
    if (d > maxDepth) maxDepth = d;
  }
  return { rows, index, shares, data, maxDepth };
}

/**
 * The lint of `core`. When it finds what `previous` found (most edits change no finding), it answers
 * `previous` itself: the editor then re-renders nothing for the lint, and an edit's answer from the
 * server is not kept waiting behind a re-render of every row.
 */
export function deriveLint(
  core: DerivedCore,
  dismissals: readonly LintDismissal[] = [],
  previous?: DerivedLint | null,
): DerivedLint {
  const { active: findings, dismissed } = splitDismissed(lintRubric(core.index, core.shares), dismissals);
  if (
    previous &&
    previous.dismissals === dismissals &&
    sameFindings(previous.findings, findings) &&
    sameFindings(previous.dismissed, dismissed)
  )
    return previous;
  const lintByKey = new Map<string, LintSummary>();
  for (const f of findings) {
    const s = lintByKey.get(f.key);
    if (s) {
      if (f.severity === "error") {
        s.errors++;
        s.worst = "error";
      } else s.warnings++;
      s.messages += `\n${f.message}`;
    } else {
      lintByKey.set(f.key, {
        errors: f.severity === "error" ? 1 : 0,
        warnings: f.severity === "warning" ? 1 : 0,
        worst: f.severity,
        messages: f.message,
      });
    }
  }
  return { findings, dismissed, dismissals, lintByKey };
}

function sameFindings(a: readonly LintFinding[], b: readonly LintFinding[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.key !== y.key || x.code !== y.code || x.severity !== y.severity || x.message !== y.message) return false;
  }
  return true;
}

export function derive(rows: readonly NodeRow[]): Derived {
  const core = deriveCore(rows);
  return { ...core, ...deriveLint(core) };
}

/** Matches of a full-text search (case-insensitive) in pre-order, limited to `within` when given. */
export function searchMatches(index: TreeIndex, term: string, within?: ReadonlySet<string> | null): string[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return [];
  const out: string[] = [];
  for (const row of index.preorder) {
    if (within && !within.has(row.key)) continue;
    if (row.requirements.toLowerCase().includes(needle)) out.push(row.key);
  }
  return out;
}

export interface Filters {
  task: string; // "" = any, "(none)" = no category, else a category
  fine: string;
  lint: string; // "" = any, "error", "warning", "any", or a lint code
}

export const NO_FILTERS: Filters = { task: "", fine: "", lint: "" };
export const NONE = "(none)";

export const filtersActive = (f: Filters) => f.task !== "" || f.fine !== "" || f.lint !== "";

/** The keys of the nodes the filters keep (react-arborist adds their ancestors). */
export function filterKeys(derived: Derived, f: Filters): Set<string> {
  const out = new Set<string>();
  const { index, findings } = derived;
  let lintKeys: Set<string> | null = null;
  if (f.lint) {
    lintKeys = new Set();
    for (const x of findings) {
      if (f.lint === "any" || x.severity === f.lint || x.code === f.lint) lintKeys.add(x.key);
    }
  }
  for (const row of index.preorder) {
    if (f.task && (row.taskCategory ?? NONE) !== f.task) continue;
    if (f.fine && (row.finegrainedTaskCategory ?? NONE) !== f.fine) continue;
    if (lintKeys && !lintKeys.has(row.key)) continue;
    out.add(row.key);
  }
  return out;
}

/** React-arborist's open state with the nodes above `depth` open (the root is at depth 0). */
export function openToDepth(index: TreeIndex, depth: number): Record<string, boolean> {
  const open: Record<string, boolean> = {};
  for (const row of index.preorder) if (index.depthOf(row.key) < depth) open[row.key] = true;
  return open;
}

export interface RubricStats {
  nodes: number;
  leaves: number;
  errors: number;
  warnings: number;
}

/** Counts for the tree's footer and the lint tab's badge. */
export function rubricStats(derived: Derived): RubricStats {
  let leaves = 0;
  for (const r of derived.index.preorder) if (derived.index.isLeaf(r.key)) leaves++;
  let errors = 0;
  for (const f of derived.findings) if (f.severity === "error") errors++;
  return { nodes: derived.index.preorder.length, leaves, errors, warnings: derived.findings.length - errors };
}
