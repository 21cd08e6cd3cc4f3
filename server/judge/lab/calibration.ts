import "server-only";
import type { Executor, Store } from "@/db/client";
import { listLabRunRows, listPaperAddenda, listPaperJudgeOverrideRows } from "@/db/queries/judge-lab";
import { getPaperById } from "@/db/queries/papers";
import type { Paper } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { CalibrationOverride } from "@/lib/judge/lab/calibration";
import { DEFAULT_LAB_VARIANT } from "@/lib/judge/lab/schemas";
import type { CalibrationView } from "@/lib/judge/lab/types";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { listLabSubmissions } from "./lab-submissions";
import { labGroupsOfPaper } from "./read-judge-lab";

/**
 * A paper's calibration page: the overrides people made of the judge's verdicts (reason, the
 * leaf's requirement, the judge's score against theirs), the judge addendum's accepted versions,
 * and the paper's lab runs by configuration and addendum version (F1 before and after).
 */

export async function requirePaper(store: { db: Executor }, paperId: string): Promise<Paper> {
  const paper = await getPaperById(store.db, paperId);
  if (!paper) throw new AppError("not_found", "No such paper");
  return paper;
}

/** The overrides of the judge on a paper's gradings, oldest first, each with its leaf's requirement. */
export async function listCalibrationOverrides(
  store: { db: Executor },
  paperId: string,
): Promise<CalibrationOverride[]> {
  const rows = await listPaperJudgeOverrideRows(store.db, paperId);
  const leaves = new Map<string, Map<string, { requirements: string; category: string | null }>>();
  const out: CalibrationOverride[] = [];
  for (const r of rows) {
    const pin = `${r.rubricVersionId}/${r.rubricView}`;
    let byKey = leaves.get(pin);
    if (!byKey) {
      const nodeRows = await getGradingRows(store.db, { rubricVersionId: r.rubricVersionId, rubricView: r.rubricView });
      leaves.set(
        pin,
        (byKey = new Map(nodeRows.map((n) => [n.key, { requirements: n.requirements, category: n.taskCategory }]))),
      );
    }
    const leaf = byKey.get(r.nodeKey);
    out.push({
      id: r.id,
      gradingId: r.gradingId,
      submissionId: r.submissionId,
      agentName: r.agentName,
      runIndex: r.runIndex,
      nodeKey: r.nodeKey,
      nodeId: r.nodeId,
      requirements: leaf?.requirements ?? "",
      category: leaf?.category ?? null,
      judgeScore: r.judgeScore,
      humanScore: r.newScore,
      reason: r.reason,
      userName: r.userName,
      createdAt: r.createdAt.toISOString(),
    });
  }
  return out;
}

export async function readCalibration(store: Store, paperId: string): Promise<CalibrationView> {
  const paper = await requirePaper(store, paperId);
  const versions = await listPaperAddenda(store.db, paperId);
  const labRuns = await listLabRunRows(store.db, { paperId });
  return {
    paper: { id: paper.id, title: paper.title, judgeAddendum: paper.judgeAddendum },
    overrides: await listCalibrationOverrides(store, paperId),
    versions: versions.map((v) => ({
      version: v.version,
      text: v.text,
      overrideIds: v.overrideIds,
      note: v.note,
      createdAt: v.createdAt.toISOString(),
      createdBy: v.createdBy,
    })),
    latestVersion: versions.at(-1)?.version ?? 0,
    byAddendum: await labGroupsOfPaper(store, paperId),
    submissions: await listLabSubmissions(store, { paperIds: [paperId] }),
    rerun: {
      submissionIds: [...new Set(labRuns.map((r) => r.submissionId))],
      configIds: [...new Set(labRuns.map((r) => r.configId).filter((id): id is string => id !== null))],
      variant: labRuns.at(-1)?.variant ?? DEFAULT_LAB_VARIANT,
    },
  };
}
