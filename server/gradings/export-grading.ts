import "server-only";
import type { Store } from "@/db/client";
import { getGradingById, getGradingItemById } from "@/db/queries/gradings";
import { AppError } from "@/lib/errors";
import { preorder } from "@/lib/grading/graded-tree";
import { gradingLeavesCsv, serializeGradedTree, serializeJudgeOutput } from "@/lib/grading/serialize";
import { getPinnedGradedTree, listEffectiveLeafScores } from "./pinned-grading";

export type GradingExportFormat = "json" | "judge_output" | "csv";

export interface GradingExport {
  body: string;
  contentType: string;
  fileName: string;
}

/**
 * A grading as a file, with the effective scores (latest overrides applied): `json` a PaperBench
 * graded tree (`expected_result.json`), `judge_output` PaperBench's `grader_output.json` wrapper
 * (the imported wrapper's fields kept), `csv` one row per leaf.
 */
export async function exportGrading(
  store: Store,
  gradingId: string,
  format: GradingExportFormat,
): Promise<GradingExport> {
  const { db } = store;
  const item = await getGradingItemById(db, gradingId);
  const grading = await getGradingById(db, gradingId);
  if (!item || !grading) throw new AppError("not_found", "No such grading");
  const pinned = await getPinnedGradedTree(db, grading);
  const tree = pinned.scores.toTree();
  // A file that wrote fine-grained categories gets them back.
  if (grading.source.finegrained) for (const node of preorder(tree)) node.file = { ...node.file, hasFinegrained: true };
  const base = `${item.paperId}-${slug(item.agentName)}-run${item.runIndex}${item.variant === "code-dev" ? "-code-dev" : ""}-${grading.kind}`;
  if (format === "csv") {
    const leaves = await listEffectiveLeafScores(db, gradingId);
    const byKey = new Map(leaves.map((l) => [l.nodeKey, l]));
    const body = gradingLeavesCsv(tree, (_leaf, index) => {
      const leaf = byKey.get(pinned.keys[index]);
      if (!leaf) return { judgeScore: null, source: "ungraded" };
      return { judgeScore: leaf.verdictScore, source: leaf.overrideScore !== null ? "human" : leaf.source };
    });
    return { body, contentType: "text/csv; charset=utf-8", fileName: `${base}.csv` };
  }
  if (format === "judge_output") {
    const body = serializeJudgeOutput(tree, {
      meta: grading.source.judgeOutput ?? null,
      judgeType: grading.judgeType ?? grading.kind,
      gradedAt: grading.gradedAt ? paperBenchTime(grading.gradedAt) : undefined,
    });
    return { body, contentType: "application/json; charset=utf-8", fileName: `${base}-grader_output.json` };
  }
  return { body: serializeGradedTree(tree), contentType: "application/json; charset=utf-8", fileName: `${base}.json` };
}

function paperBenchTime(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getUTCFullYear()}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())}T${p(date.getUTCHours())}-${p(date.getUTCMinutes())}-${p(date.getUTCSeconds())}-UTC`;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "agent"
  );
}
