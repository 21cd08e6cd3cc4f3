/**
 * Lint for the live editor: PaperBench rule breaks (errors, which block export) and things worth
 * a second look (warnings), per node key. The codes shared with `lint.ts` mean the same thing
 * there. Pure; no framework, no Node built-ins; one pass, fast on the largest rubric.
 */
import { isUuid } from "./lint";
import { formatShare } from "./shares";
import type { TreeIndex } from "./tree-index";
import { FINEGRAINED_TASK_CATEGORIES, TASK_CATEGORIES } from "./types";

/** The codes, in the order they are reported for one node. */
export const LINT_CODES = [
  "duplicate_id",
  "non_uuid_id",
  "empty_requirements",
  "duplicate_sibling_requirements",
  "leaf_without_category",
  "internal_with_category",
  "unknown_category",
  "unknown_finegrained_category",
  "negative_weight",
  "all_zero_sibling_weights",
  "tiny_share",
] as const;
export type LintCode = (typeof LINT_CODES)[number];

export type LintSeverity = "error" | "warning";

/** Severity per code: an error breaks a PaperBench rule and blocks export. */
export const LINT_SEVERITY: Readonly<Record<LintCode, LintSeverity>> = {
  leaf_without_category: "error",
  internal_with_category: "error",
  unknown_category: "error",
  unknown_finegrained_category: "error",
  negative_weight: "error",
  all_zero_sibling_weights: "error",
  duplicate_id: "warning",
  non_uuid_id: "warning",
  empty_requirements: "warning",
  duplicate_sibling_requirements: "warning",
  tiny_share: "warning",
};

export interface LintFinding {
  /** The node's row key. */
  key: string;
  code: LintCode;
  severity: LintSeverity;
  message: string;
}

/** Short names of the codes (filter chips, group headings, the paper page). */
export const LINT_LABELS: Readonly<Record<LintCode, string>> = {
  leaf_without_category: "Leaf without category",
  internal_with_category: "Internal node with category",
  unknown_category: "Unknown category",
  unknown_finegrained_category: "Unknown fine-grained category",
  negative_weight: "Negative weight",
  all_zero_sibling_weights: "All-zero sibling weights",
  duplicate_id: "Duplicate id",
  non_uuid_id: "Non-UUID id",
  empty_requirements: "Empty requirements",
  duplicate_sibling_requirements: "Duplicate sibling requirements",
  tiny_share: "Weight far below its siblings",
};

/**
 * `tiny_share`: a node with a weight above 0 gets it when its weight is below 1/TINY_SHARE_RATIO of
 * the median weight of its other weighted siblings, i.e. its share of the final score is under a
 * tenth of what its siblings typically get. Why relative to the siblings and not an absolute share
 * (the rule used to fire below 0.01%): in the real PaperBench rubrics a small share comes from
 * depth and breadth, which are by design (pinn has 1,963 leaves 7 levels deep: 1,716 of them were
 * under 0.01%, and 1,260 would still be under 1/(20·leaves)), while a weight typed wrong (0.1 for
 * 1, 1 for 10) stands out against the siblings. On the 20 real rubrics no sibling is even 1/5 of
 * its siblings' median except a handful, and one is under 1/10 (`editor-lint.test.ts` counts).
 * Nodes with sub-tasks are checked too: a light subtree makes every leaf under it light, and the
 * finding belongs where the weight was set, not on each leaf below.
 */
export const TINY_SHARE_RATIO = 10;

const TASK_SET: ReadonlySet<string> = new Set(TASK_CATEGORIES);
const FINEGRAINED_SET: ReadonlySet<string> = new Set(FINEGRAINED_TASK_CATEGORIES);
const CODE_ORDER = new Map<LintCode, number>(LINT_CODES.map((c, i) => [c, i]));

/** The start of a requirement text for a message: one line, at most `max` characters. */
function excerpt(text: string, max = 60): string {
  const line = text.trim().replace(/\s+/g, " ");
  if (line === "") return "(empty requirements)";
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/**
 * All findings, in pre-order of the nodes (then in `LINT_CODES` order within a node).
 * `all_zero_sibling_weights` is reported once, on the parent whose children all weigh 0.
 */
export function lintRubric(index: TreeIndex, shares: ReadonlyMap<string, number>): LintFinding[] {
  const findings: LintFinding[] = [];
  const firstById = new Map<string, string>(); // PaperBench id -> requirements of its first node
  // Child key -> 1-based position of the earlier sibling with the same requirements; filled when
  // the parent is visited (pre-order: before its children), reported on the child.
  const duplicateSibling = new Map<string, number>();
  // Child key -> the typical (median) weight of its siblings, for the children far below it; filled
  // like `duplicateSibling`.
  const lightSibling = new Map<string, number>();
  const nodeFindings: LintFinding[] = [];
  // One closure for the whole walk (not one per node: this loop runs on every edit).
  let key = "";
  const report = (code: LintCode, message: string) => {
    nodeFindings.push({ key, code, severity: LINT_SEVERITY[code], message });
  };

  for (const row of index.preorder) {
    key = row.key;
    nodeFindings.length = 0;
    const kids = index.children(key);
    const leaf = kids.length === 0;

    const firstRequirements = firstById.get(row.nodeId);
    if (firstRequirements === undefined) firstById.set(row.nodeId, row.requirements);
    else {
      report(
        "duplicate_id",
        `Id ${JSON.stringify(row.nodeId)} is already used by an earlier node ("${excerpt(firstRequirements)}"); a lookup by id finds that one`,
      );
    }
    if (!isUuid(row.nodeId)) report("non_uuid_id", `Id ${JSON.stringify(row.nodeId)} is not a UUID`);

    if (row.requirements.trim() === "") report("empty_requirements", "Requirements are empty");

    const category = row.taskCategory;
    if (leaf) {
      if (category === null) {
        report(
          "leaf_without_category",
          `Leaf has no task category; PaperBench needs one of ${TASK_CATEGORIES.join(", ")}`,
        );
      }
    } else if (category !== null) {
      report(
        "internal_with_category",
        `Node has sub-tasks but task category ${JSON.stringify(category)}; PaperBench expects none on a node with sub-tasks`,
      );
    }
    if (category !== null && !TASK_SET.has(category)) {
      report(
        "unknown_category",
        `Task category ${JSON.stringify(category)} is not one of ${TASK_CATEGORIES.join(", ")}`,
      );
    }
    const fine = row.finegrainedTaskCategory;
    if (fine !== null && !FINEGRAINED_SET.has(fine)) {
      report(
        "unknown_finegrained_category",
        `Fine-grained category ${JSON.stringify(fine)} is not one of the ${FINEGRAINED_TASK_CATEGORIES.length} PaperBench categories`,
      );
    }
    // NaN counts as negative: it is no weight PaperBench accepts.
    if (!(row.weight >= 0)) report("negative_weight", `Weight is ${row.weight}; PaperBench needs a number >= 0`);

    let allZero = !leaf;
    for (let i = 0; allZero && i < kids.length; i++) allZero = kids[i].weight === 0;
    if (allZero) {
      report(
        "all_zero_sibling_weights",
        kids.length === 1
          ? "Its only sub-task weighs 0, so this node always scores 0"
          : `All ${kids.length} sub-tasks weigh 0, so this node always scores 0`,
      );
    }
    const typical = lightSibling.get(key);
    if (typical !== undefined) {
      lightSibling.delete(key);
      const share = shares.get(key) ?? 0;
      report(
        "tiny_share",
        `Weighs ${row.weight}, under a tenth of its siblings' typical ${typical}: ${formatShare(share)} of the final score`,
      );
    }

    if (kids.length > 1) findLightSiblings(kids, lightSibling);

    // Siblings with the same requirements (the later ones are reported, on their own visit).
    if (kids.length > 1) {
      const firstAt = new Map<string, number>();
      for (let i = 0; i < kids.length; i++) {
        const text = kids[i].requirements.trim();
        if (text === "") continue; // empty_requirements already says it
        const first = firstAt.get(text);
        if (first === undefined) firstAt.set(text, i + 1);
        else duplicateSibling.set(kids[i].key, first);
      }
    }
    const sameAs = duplicateSibling.get(key);
    if (sameAs !== undefined) {
      duplicateSibling.delete(key);
      report("duplicate_sibling_requirements", `Same requirements as sub-task ${sameAs} of the same parent`);
    }

    if (nodeFindings.length > 1) nodeFindings.sort((a, b) => CODE_ORDER.get(a.code)! - CODE_ORDER.get(b.code)!);
    for (const f of nodeFindings) findings.push(f);
  }
  return findings;
}

/**
 * Records in `out` each child whose weight is above 0 and under 1/TINY_SHARE_RATIO of the median
 * weight of its other siblings weighing above 0 (the ones at 0 take no share: they say nothing of
 * what a share should be), with that median.
 */
function findLightSiblings(kids: readonly { key: string; weight: number }[], out: Map<string, number>): void {
  // The typical weight is at most the heaviest: when the lightest is above a tenth of it (siblings
  // weigh alike in nearly every real rubric), nothing is light and nothing is sorted.
  let min = Infinity;
  let max = 0;
  for (const k of kids) {
    if (!(k.weight > 0)) continue;
    if (k.weight < min) min = k.weight;
    if (k.weight > max) max = k.weight;
  }
  if (min * TINY_SHARE_RATIO >= max) return;
  const weighted = kids.filter((k) => k.weight > 0).sort((a, b) => a.weight - b.weight);
  if (weighted.length < 2) return;
  const weights = weighted.map((k) => k.weight);
  for (let rank = 0; rank < weighted.length; rank++) {
    const typical = medianWithout(weights, rank);
    // Sorted: once one child is not far below the others, the heavier ones are not either.
    if (weights[rank] * TINY_SHARE_RATIO >= typical) break;
    out.set(weighted[rank].key, typical);
  }
}

/** The median of `sorted` without its element at `skip`. */
function medianWithout(sorted: readonly number[], skip: number): number {
  const n = sorted.length - 1;
  const at = (i: number) => sorted[i < skip ? i : i + 1];
  return n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}
