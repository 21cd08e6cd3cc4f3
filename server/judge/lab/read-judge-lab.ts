import "server-only";
import type { Executor, Store } from "@/db/client";
import { getGradingById } from "@/db/queries/gradings";
import { listJudgeConfigs } from "@/db/queries/judge-configs";
import {
  getJudgeLab,
  listJudgeLabRows,
  listLabRunRows,
  listPaperAddenda,
  type LabRunRow,
} from "@/db/queries/judge-lab";
import { AppError } from "@/lib/errors";
import { collectSamples, computeMetrics } from "@/lib/judge/eval/metrics";
import { GradingInputError } from "@/lib/grading/recompute";
import type { GradedNode } from "@/lib/grading/types";
import { aggregateLab, type LabRunOutcome, type LabSample } from "@/lib/judge/lab/metrics";
import type { LabGroupView, LabRunView, LabSummary, LabView } from "@/lib/judge/lab/types";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { judgeRunStatus } from "@/lib/judge/views";
import { isUuid } from "@/lib/uuid";
import { getPinnedGradedTree } from "@/server/gradings/pinned-grading";

/**
 * A lab's progress and results: each run against its human truth, leaf by leaf as JudgeEval
 * compares them (the truth's effective scores, the lab grading's own verdicts, matched by leaf
 * id), and per configuration F1 overall and per task category, cost and time per paper
 * (`lib/judge/lab/metrics.ts`).
 */

async function gradingTree(db: Executor, gradingId: string, effective: boolean): Promise<GradedNode> {
  const grading = await getGradingById(db, gradingId);
  if (!grading) throw new AppError("not_found", "A grading went away meanwhile; try again");
  const pinned = await getPinnedGradedTree(db, grading);
  return effective ? pinned.scores.toTree() : pinned.tree;
}

interface ComparedRun {
  row: LabRunRow;
  view: LabRunView;
  samples: LabSample[];
}

/** Each run's view and samples; pairs JudgeEval cannot read are skipped with the reason. */
async function compareRuns(
  db: Executor,
  rows: readonly LabRunRow[],
): Promise<{ compared: ComparedRun[]; skipped: LabView["skipped"] }> {
  const truths = new Map<string, GradedNode>();
  const compared: ComparedRun[] = [];
  const skipped: LabView["skipped"] = [];
  for (const row of rows) {
    const status = judgeRunStatus(row.jobStatus);
    let samples: LabSample[] = [];
    let f1: number | null = null;
    if (status === "succeeded") {
      let truth = truths.get(row.truthGradingId);
      if (!truth) truths.set(row.truthGradingId, (truth = await gradingTree(db, row.truthGradingId, true)));
      try {
        samples = collectSamples({ human: truth, judge: await gradingTree(db, row.gradingId, false) }).samples;
        f1 = computeMetrics(
          samples.map((s) => s.human),
          samples.map((s) => s.judge),
        ).f1;
      } catch (err) {
        if (!(err instanceof GradingInputError)) throw err;
        skipped.push({ judgeRunId: row.judgeRunId, message: err.message });
      }
    }
    const durationS =
      row.startedAt && row.finishedAt ? (row.finishedAt.getTime() - row.startedAt.getTime()) / 1000 : null;
    compared.push({
      row,
      samples,
      view: {
        judgeRunId: row.judgeRunId,
        gradingId: row.gradingId,
        submissionId: row.submissionId,
        paperId: row.paperId,
        agentName: row.agentName,
        runIndex: row.runIndex,
        configId: row.configId,
        configName: row.configName,
        status,
        leavesDone: row.leavesDone,
        leavesTotal: row.leavesTotal,
        costUsd: row.costUsd,
        durationS,
        addendumVersion: row.addendumVersion,
        f1,
      },
    });
  }
  return { compared, skipped };
}

/**
 * Whether a run's cost and time are final: the worker ends the job first and stamps the run's end
 * just after, so a run counts once stamped (or once its job ended without it ever starting, or is gone).
 */
function runSettled(row: LabRunRow): boolean {
  if (row.finishedAt !== null || row.jobStatus === null) return true;
  return isFinalJobStatus(row.jobStatus) && row.startedAt === null;
}

/** Groups per configuration, or per configuration and addendum version (`byAddendum`). */
async function groupsOf(db: Executor, compared: readonly ComparedRun[], byAddendum: boolean): Promise<LabGroupView[]> {
  const keyOf = (r: LabRunRow) => `${r.configId ?? r.configName}${byAddendum ? `@${r.addendumVersion ?? "none"}` : ""}`;
  const outcomes: LabRunOutcome[] = compared.map(({ row, view, samples }) => ({
    groupKey: keyOf(row),
    paperId: row.paperId,
    finished: runSettled(row),
    succeeded: view.status === "succeeded",
    costUsd: row.costUsd,
    durationMs: view.durationS === null ? null : view.durationS * 1000,
    samples,
  }));
  const configs = new Map((await listJudgeConfigs(db, { includeArchived: true })).map((c) => [c.id, c]));
  const firstRow = new Map<string, LabRunRow>();
  for (const { row } of compared) if (!firstRow.has(keyOf(row))) firstRow.set(keyOf(row), row);
  return aggregateLab(outcomes).map((group) => {
    const row = firstRow.get(group.groupKey)!;
    const config = row.configId ? configs.get(row.configId) : undefined;
    return {
      ...group,
      configId: row.configId,
      configName: config?.name ?? row.configName,
      kind: config?.kind ?? null,
      model: config?.model ?? null,
      isDefault: config?.isDefault ?? false,
      addendumVersion: byAddendum ? row.addendumVersion : null,
    };
  });
}

/**
 * Every lab run on a paper, per configuration and the addendum version it ran with (calibration's
 * before and after). A run started before its text was recorded as a version (the first
 * acceptance records the text it replaced) is counted under that version.
 */
export async function labGroupsOfPaper(store: { db: Executor }, paperId: string): Promise<LabGroupView[]> {
  const versionOf = new Map((await listPaperAddenda(store.db, paperId)).map((v) => [v.text, v.version]));
  const rows = (await listLabRunRows(store.db, { paperId })).map((r) => ({
    ...r,
    addendumVersion: r.addendumVersion ?? versionOf.get(r.judgeAddendum) ?? null,
  }));
  const { compared } = await compareRuns(store.db, rows);
  return groupsOf(store.db, compared, true);
}

function toSummary(row: Awaited<ReturnType<typeof listJudgeLabRows>>[number]): LabSummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    runs: row.runs,
    pending: row.pending,
    paperIds: row.paperIds,
  };
}

export async function listJudgeLabs(store: Store): Promise<LabSummary[]> {
  return (await listJudgeLabRows(store.db)).map(toSummary);
}

export async function readJudgeLab(store: Store, labId: string): Promise<LabView> {
  const lab = isUuid(labId) ? await getJudgeLab(store.db, labId) : null;
  if (!lab) throw new AppError("not_found", "No such judge lab");
  const rows = await listLabRunRows(store.db, { labId });
  const { compared, skipped } = await compareRuns(store.db, rows);
  const summary = (await listJudgeLabRows(store.db)).find((r) => r.id === lab.id);
  return {
    lab: summary
      ? toSummary(summary)
      : { id: lab.id, name: lab.name, createdAt: lab.createdAt.toISOString(), runs: 0, pending: 0, paperIds: [] },
    runs: compared.map((c) => c.view),
    groups: await groupsOf(store.db, compared, false),
    skipped,
  };
}
