/**
 * Two gradings of one submission side by side, leaf by leaf (LangSmith's and Langfuse's compare
 * view): two judges, a judge and a person, or two rubric versions. Leaves are matched as a rubric
 * change matches them (`matchNodes`: by key, else by the path of PaperBench ids), each side scored
 * by the one effective-score rule and its root by the one aggregation (`buildPinnedGradedTree`).
 * Differences come first, then leaves only one side has, then the leaves that agree; each group in
 * the tree's order. Pure.
 */
import { matchNodes } from "@/lib/grading/affected-leaves";
import { effectiveLeafScore } from "@/lib/grading/effective-score";
import { buildPinnedGradedTree, type StoredOverride, type StoredVerdict } from "@/lib/grading/pinned-tree";
import { buildTreeIndex } from "@/lib/rubric/tree-index";
import type { NodeRow } from "@/lib/rubric/tree-rows";

/** One grading as stored: its pinned rows (pre-order), verdicts and overrides (oldest first). */
export interface ComparisonInput {
  rows: readonly NodeRow[];
  verdicts: readonly StoredVerdict[];
  overrides: readonly StoredOverride[];
}

/** A leaf as one grading has it. */
export interface ComparedLeafSide {
  key: string;
  /** What it counts: the latest override, else the valid verdict, else 0. */
  score: number;
  /** The verdict's score; null when the leaf was never graded. */
  verdictScore: number | null;
  /** The verdict was valid (an invalid or missing one counts 0). */
  valid: boolean;
  /** A person overrode the verdict. */
  overridden: boolean;
  explanation: string;
}

export type ComparedLeafStatus = "differs" | "only-a" | "only-b" | "same";

export interface ComparedLeaf {
  nodeId: string;
  requirements: string;
  taskCategory: string | null;
  status: ComparedLeafStatus;
  a: ComparedLeafSide | null;
  b: ComparedLeafSide | null;
}

export interface GradingComparisonResult {
  /** Effective root scores. */
  rootA: number;
  rootB: number;
  leaves: ComparedLeaf[];
  counts: Record<ComparedLeafStatus, number>;
}

const ORDER: readonly ComparedLeafStatus[] = ["differs", "only-a", "only-b", "same"];

function sidesOf(input: ComparisonInput): {
  root: number;
  leaves: Map<string, ComparedLeafSide>;
  rows: readonly NodeRow[];
} {
  const pinned = buildPinnedGradedTree(input.rows, input.verdicts, input.overrides);
  const verdictOf = new Map(input.verdicts.map((v) => [v.nodeKey, v]));
  const latest = new Map<string, number>();
  for (const o of input.overrides) latest.set(o.nodeKey, o.newScore);
  const index = buildTreeIndex(input.rows);
  const leaves = new Map<string, ComparedLeafSide>();
  for (const row of index.preorder) {
    if (!index.isLeaf(row.key)) continue;
    const verdict = verdictOf.get(row.key) ?? null;
    const override = latest.get(row.key) ?? null;
    leaves.set(row.key, {
      key: row.key,
      score: effectiveLeafScore(override, verdict),
      verdictScore: verdict ? verdict.score : null,
      valid: verdict?.valid ?? false,
      overridden: override !== null,
      explanation: verdict?.explanation ?? "",
    });
  }
  return { root: pinned.scores.rootScore, leaves, rows: index.preorder };
}

/** Whether two sides of a leaf say different things: another score, or one counts a valid verdict and the other not. */
function differs(a: ComparedLeafSide, b: ComparedLeafSide): boolean {
  return a.score !== b.score || (a.valid || a.overridden) !== (b.valid || b.overridden);
}

export function compareGradings(a: ComparisonInput, b: ComparisonInput): GradingComparisonResult {
  const sa = sidesOf(a);
  const sb = sidesOf(b);
  // Which leaf of A each leaf of B is (leaves only: a node that is a leaf on one side alone is on that side alone).
  const aOfB = new Map<string, string>();
  for (const [bKey, aKey] of matchNodes(buildTreeIndex(a.rows), buildTreeIndex(b.rows))) {
    if (sa.leaves.has(aKey) && sb.leaves.has(bKey)) aOfB.set(bKey, aKey);
  }
  const bOfA = new Map([...aOfB].map(([bKey, aKey]) => [aKey, bKey]));
  const rowOf = (rows: readonly NodeRow[]) => new Map(rows.map((r) => [r.key, r]));
  const rowsA = rowOf(sa.rows);
  const rowsB = rowOf(sb.rows);
  const out: ComparedLeaf[] = [];
  for (const [aKey, sideA] of sa.leaves) {
    const bKey = bOfA.get(aKey);
    const sideB = bKey === undefined ? null : sb.leaves.get(bKey)!;
    // B's text where both have the leaf: the later rubric's words, when the versions differ.
    const row = bKey === undefined ? rowsA.get(aKey)! : rowsB.get(bKey)!;
    const status: ComparedLeafStatus = sideB === null ? "only-a" : differs(sideA, sideB) ? "differs" : "same";
    out.push({
      nodeId: row.nodeId,
      requirements: row.requirements,
      taskCategory: row.taskCategory,
      status,
      a: sideA,
      b: sideB,
    });
  }
  for (const [bKey, sideB] of sb.leaves) {
    if (aOfB.has(bKey)) continue;
    const row = rowsB.get(bKey)!;
    out.push({
      nodeId: row.nodeId,
      requirements: row.requirements,
      taskCategory: row.taskCategory,
      status: "only-b",
      a: null,
      b: sideB,
    });
  }
  // A stable sort: each group keeps the tree's order.
  out.sort((x, y) => ORDER.indexOf(x.status) - ORDER.indexOf(y.status));
  const counts: Record<ComparedLeafStatus, number> = { differs: 0, "only-a": 0, "only-b": 0, same: 0 };
  for (const leaf of out) counts[leaf.status]++;
  return { rootA: sa.root, rootB: sb.root, leaves: out, counts };
}

/** A grading one may pick to compare (`GET /api/submissions/<id>/compare`). */
export interface ComparableGrading {
  id: string;
  kind: "judge" | "human";
  /** How it was scored, in words (`provenanceSummary`). */
  how: string;
  rubricVersionName: string;
  /** The effective root score. */
  score: number;
  createdAt: string;
}

/** `GET /api/submissions/<id>/compare?a=&b=`: the gradings to pick from, the two picked, and their comparison (null without two). */
export interface SubmissionComparison {
  submissionId: string;
  paperId: string;
  gradings: ComparableGrading[];
  a: ComparableGrading | null;
  b: ComparableGrading | null;
  result: GradingComparisonResult | null;
}
