import "server-only";
import { randomUUID } from "node:crypto";
import type { Executor, Store } from "@/db/client";
import { deleteVerdictsByKeys, rekeyVerdicts, remapAssignmentKeys, setGradingPin } from "@/db/queries/grading-repin";
import { getGradingItemById, lockGradingById, setGradingScore, type GradingListItem } from "@/db/queries/gradings";
import { insertVerdicts, listVerdictKeys } from "@/db/queries/grading-verdicts";
import { insertJob } from "@/db/queries/jobs";
import { listJudgeConfigs } from "@/db/queries/judge-configs";
import { getJudgeRunByGradingId, getJudgeRunStateByGradingId, insertJudgeRun } from "@/db/queries/judge-runs";
import { getLiveNodeRows, getRubricByPaperId, lockRubricById } from "@/db/queries/rubrics";
import { getSubmissionById } from "@/db/queries/submissions";
import type { JudgeConfig } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { classifyLeaves, matchNodes } from "@/lib/grading/affected-leaves";
import type { RegradeRequest, RegradeResult } from "@/lib/grading/rubric-consequences";
import type { Variant } from "@/lib/grading/variant";
import type { JudgeConfigInput } from "@/lib/judge/config";
import { gradedUnits, toJudgeRubric } from "@/lib/judge/rubric-rows";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { buildPinnedGradedTree, viewRows } from "@/lib/grading/pinned-tree";
import { buildTreeIndex } from "@/lib/rubric/tree-index";
import { publishJobQueued } from "@/server/jobs/job-events";
import { judgeJobKind } from "@/server/judge/worker/judge-job-kind";
import { assertJudgeKeyReady, judgeConfigFields } from "@/server/judge/configs/judge-config-view";
import { requireJudgeConfig } from "@/server/judge/configs/list-judge-configs";
import { judgeSourceOf } from "@/server/judge/judge-submission-files";
import { JUDGE_MAX_ATTEMPTS, JUDGE_TIMEOUT_S } from "./start-judge-run";
import { getGradingRows, getPinnedGradedTree } from "@/server/gradings/pinned-grading";
import { pinLiveVersion, rubricFingerprint } from "@/server/gradings/import-grading";
import { currentViewOf, ImpactCache } from "@/server/gradings/rubric-consequences";

/** How a judge grading's missing leaves are graded: the configuration and depth of its last run, or the one asked for. */
interface JudgeChoice {
  configId: string | null;
  fields: JudgeConfigInput;
  maxDepth: number | null;
}

/** Why a leaf of a human grading waits for review: shown as its (invalid) verdict's explanation. */
const NEEDS_REVIEW = "Needs review: the rubric changed since this leaf was graded";

/**
 * Re-grades what a rubric change touched (staff), one grading at a time, each in one transaction:
 * the grading is pinned to the live rubric (a version of it), the verdicts of unchanged and
 * reweighted leaves are kept under their leaves' keys (each still naming the version it was made
 * against), the others dropped, and the root recomputed. Then a judge grading's missing leaves go
 * to a judge run that grades only them (the worker's resume), and a human grading's get an invalid
 * verdict that counts 0 until a reviewer scores it.
 */
export async function regradeAffectedLeaves(
  store: Store,
  paperId: string,
  request: RegradeRequest,
  userId: string | null,
): Promise<RegradeResult[]> {
  const asked = request.configId ? await requireUsableConfig(store, request.configId) : null;
  const rubric = await getRubricByPaperId(store.db, paperId);
  if (!rubric) throw new AppError("conflict", "The paper has no rubric");
  const cache = new ImpactCache(await getLiveNodeRows(store.db, rubric.id));
  const items: GradingListItem[] = [];
  for (const gradingId of new Set(request.gradingIds)) {
    const item = await getGradingItemById(store.db, gradingId);
    if (!item || item.paperId !== paperId) {
      throw new AppError("not_found", `No grading ${gradingId} on this paper`, [
        { path: "gradingIds", message: `${gradingId} is not a grading of this paper` },
      ]);
    }
    items.push(item);
  }
  const results: RegradeResult[] = [];
  for (const item of items) {
    // A judge is needed only where leaves lack verdicts (a reweighted grading of an imported run has no reproduction to judge).
    const needsJudge = item.kind === "judge" && ((await cache.impact(store.db, item))?.toGrade.length ?? 0) > 0;
    const judge = needsJudge ? await judgeChoiceFor(store, item, asked) : null;
    const { result, jobId } = await regradeOne(store, item, judge, userId);
    if (jobId) await publishJobQueued(store, { id: jobId, kind: "judge", status: "queued" });
    results.push(result);
  }
  return results;
}

async function regradeOne(
  store: Store,
  item: GradingListItem,
  judge: JudgeChoice | null,
  userId: string | null,
): Promise<{ result: RegradeResult; jobId: string | null }> {
  const view = currentViewOf(item);
  return store.db.transaction(async (tx) => {
    const found = await getRubricByPaperId(tx, item.paperId);
    if (!found) throw new AppError("conflict", "The paper has no rubric");
    // Share lock: the revision and the rows pinned belong together.
    const rubric = await lockRubricById(tx, found.id, "share");
    const liveRows = await getLiveNodeRows(tx, rubric.id);
    const current = liveRows.length > 0 ? viewRows(liveRows, view) : [];
    if (current.length === 0)
      throw new AppError(
        "conflict",
        view === "code-dev" ? "The rubric has no Code Development leaf" : "The rubric is empty",
      );
    const grading = await lockGradingById(tx, item.id);
    if (!grading) throw new AppError("not_found", "No such grading");
    const running = await getJudgeRunStateByGradingId(tx, grading.id);
    if (running?.jobStatus && !isFinalJobStatus(running.jobStatus)) {
      throw new AppError(
        "conflict",
        `A judge run of ${item.agentName} run ${item.runIndex} is still going: re-grade once it ends`,
        [{ path: "gradingIds", message: `${grading.id} is being judged` }],
      );
    }

    const pinnedRows = await getGradingRows(tx, grading);
    const impact = classifyLeaves(pinnedRows, current);
    const { versionId } = await pinLiveVersion(tx, rubric, liveRows, userId);
    const oldKeys = await listVerdictKeys(tx, grading.id);
    const kept = new Map<string, { from: string; to: string; nodeId: string }>();
    for (const leaf of impact.leaves) {
      if (leaf.oldKey !== null && (leaf.change === "unchanged" || leaf.change === "reweighted"))
        kept.set(leaf.oldKey, { from: leaf.oldKey, to: leaf.key, nodeId: leaf.nodeId });
    }
    await deleteVerdictsByKeys(
      tx,
      grading.id,
      oldKeys.filter((k) => !kept.has(k)),
    );
    await setGradingPin(tx, grading.id, {
      rubricVersionId: versionId,
      rubricFingerprint: rubricFingerprint(buildPinnedGradedTree(current, []).tree),
    });
    await rekeyVerdicts(
      tx,
      grading.id,
      oldKeys.filter((k) => kept.has(k)).map((k) => kept.get(k)!),
    );
    const newKeyOf = new Map(
      [...matchNodes(buildTreeIndex(pinnedRows), buildTreeIndex(current))].map(([to, from]) => [from, to]),
    );
    await remapAssignmentKeys(tx, grading.id, newKeyOf);
    const nodeIdOf = new Map(current.map((r) => [r.key, r.nodeId]));

    let jobId: string | null = null;
    let judgeRunId: string | null = null;
    let leavesToGrade = impact.toGrade.length;
    if (grading.kind === "judge" && impact.toGrade.length > 0 && !judge) {
      throw new AppError("conflict", "The rubric changed while re-grading: look at its consequences again");
    }
    if (judge) {
      // A unit graded as a whole (a pseudo-leaf at the max depth) is asked again whole: its kept leaves' verdicts go too.
      const units = gradedUnits(toJudgeRubric(current), view === "code-dev", judge.maxDepth);
      const have = new Set(await listVerdictKeys(tx, grading.id));
      const open = units.filter((u) => u.leafKeys.some((k) => !have.has(k)));
      await deleteVerdictsByKeys(
        tx,
        grading.id,
        open.flatMap((u) => u.leafKeys.filter((k) => have.has(k))),
      );
      leavesToGrade = open.reduce((n, u) => n + u.leafKeys.length, 0);
      if (open.length > 0) ({ jobId, judgeRunId } = await queueJudgeRun(tx, item, view, judge, open.length, userId));
    } else if (impact.toGrade.length > 0) {
      await insertVerdicts(
        tx,
        grading.id,
        impact.toGrade.map((key) => ({
          nodeKey: key,
          nodeId: nodeIdOf.get(key) ?? "",
          score: 0,
          valid: false,
          explanation: NEEDS_REVIEW,
          judgeMetadata: { needs_review: true },
          source: "human" as const,
        })),
      );
    }
    const { scores } = await getPinnedGradedTree(tx, { id: grading.id, rubricVersionId: versionId, rubricView: view });
    await setGradingScore(tx, grading.id, scores.rootScore);
    const outcome: RegradeResult["outcome"] = jobId
      ? "judging"
      : !judge && impact.toGrade.length > 0
        ? "review"
        : "recomputed";
    return {
      result: {
        gradingId: grading.id,
        outcome,
        score: scores.rootScore,
        leavesToGrade: jobId || outcome === "review" ? leavesToGrade : 0,
        judgeRunId,
      },
      jobId,
    };
  });
}

/** A `judge` job and its run over the grading as it is now pinned: the worker grades the units without verdicts. */
async function queueJudgeRun(
  tx: Executor,
  item: GradingListItem,
  variant: Variant,
  judge: JudgeChoice,
  units: number,
  userId: string | null,
): Promise<{ jobId: string; judgeRunId: string }> {
  const judgeRunId = randomUUID();
  const job = await insertJob(tx, {
    kind: "judge",
    paperId: item.paperId,
    submissionId: item.submissionId,
    payload: judgeJobKind.payloadFor({ judgeRunId }),
    gpusRequired: 0,
    timeoutS: JUDGE_TIMEOUT_S,
    maxAttempts: JUDGE_MAX_ATTEMPTS,
    createdBy: userId,
  });
  await insertJudgeRun(tx, {
    id: judgeRunId,
    gradingId: item.id,
    submissionId: item.submissionId,
    jobId: job.id,
    configId: judge.configId,
    config: judge.fields,
    variant,
    maxDepth: judge.maxDepth,
    leavesTotal: units,
    createdBy: userId,
  });
  return { jobId: job.id, judgeRunId };
}

/**
 * The judge that grades a judge grading's missing leaves: the configuration asked for, else the
 * configuration of the grading's last run as it ran, else the default configuration (an imported
 * judge grading has no run). Checked before anything is written: the submission must have what
 * the variant grades.
 */
async function judgeChoiceFor(store: Store, item: GradingListItem, asked: JudgeConfig | null): Promise<JudgeChoice> {
  const submission = await getSubmissionById(store.db, item.submissionId);
  if (!submission) throw new AppError("not_found", "The grading's submission is gone");
  await judgeSourceOf(store, submission, currentViewOf(item));
  const last = await getJudgeRunByGradingId(store.db, item.id);
  const maxDepth = last?.run.maxDepth ?? null;
  if (asked) return { configId: asked.id, fields: judgeConfigFields(asked), maxDepth };
  if (last) return { configId: last.run.configId, fields: last.run.config as JudgeConfigInput, maxDepth };
  const fallback = (await listJudgeConfigs(store.db, { includeArchived: false })).find((c) => c.isDefault);
  if (!fallback) {
    throw new AppError(
      "conflict",
      `The grading of ${item.agentName} run ${item.runIndex} was not made by a judge run here: choose a judge configuration`,
      [{ path: "configId", message: "is required for an imported judge grading when no configuration is the default" }],
    );
  }
  return { configId: fallback.id, fields: judgeConfigFields(fallback), maxDepth };
}

/** A configuration named by the request: not archived, and its API key set on this server. */
async function requireUsableConfig(store: Store, configId: string): Promise<JudgeConfig> {
  const config = await requireJudgeConfig(store, configId);
  if (config.archivedAt)
    throw new AppError("conflict", `The judge configuration "${config.name}" is archived`, [
      { path: "configId", message: "is archived" },
    ]);
  assertJudgeKeyReady(config, "configId");
  return config;
}
