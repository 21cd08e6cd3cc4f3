import "server-only";
import type { Executor, Store } from "@/db/client";
import { listGradingsByPaperId, type GradingListItem } from "@/db/queries/gradings";
import { listOverrideScores, listVerdicts } from "@/db/queries/grading-verdicts";
import { getJudgeRunStateByGradingId } from "@/db/queries/judge-runs";
import { getLiveNodeRows, getRubricByPaperId } from "@/db/queries/rubrics";
import { classifyLeaves, projectScore, type RubricImpact } from "@/lib/grading/affected-leaves";
import type { GradingConsequence, RubricConsequences } from "@/lib/grading/rubric-consequences";
import type { Variant } from "@/lib/grading/variant";
import { isFinalJobStatus } from "@/lib/jobs/states";
import { viewRows } from "@/lib/grading/pinned-tree";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { getGradingRows } from "./pinned-grading";

/**
 * The view of the live rubric a grading is compared with: its own view, except that a grading of
 * an imported tree (pinned as a version of its own, always "full") compares with its run's variant.
 */
export function currentViewOf(grading: Pick<GradingListItem, "rubricView" | "variant">): Variant {
  return grading.rubricView === "code-dev" ? "code-dev" : grading.variant;
}

/** Classifications and live views shared by the gradings pinned to one version (one per request). */
export class ImpactCache {
  private readonly views = new Map<Variant, readonly NodeRow[]>();
  private readonly impacts = new Map<string, RubricImpact>();
  constructor(private readonly liveRows: readonly NodeRow[]) {}

  view(variant: Variant): readonly NodeRow[] {
    let rows = this.views.get(variant);
    if (!rows) this.views.set(variant, (rows = this.liveRows.length > 0 ? viewRows(this.liveRows, variant) : []));
    return rows;
  }

  async impact(
    db: Executor,
    grading: Pick<GradingListItem, "rubricVersionId" | "rubricView" | "variant">,
  ): Promise<RubricImpact | null> {
    const current = this.view(currentViewOf(grading));
    if (current.length === 0) return null;
    const cacheKey = `${grading.rubricVersionId}/${grading.rubricView}/${currentViewOf(grading)}`;
    let impact = this.impacts.get(cacheKey);
    if (!impact) {
      impact = classifyLeaves(await getGradingRows(db, grading), current);
      this.impacts.set(cacheKey, impact);
    }
    return impact;
  }
}

/** Whether a classification leaves a grading exactly as it is (its pin may stay). */
function changesNothing(impact: RubricImpact): boolean {
  return impact.counts.unchanged === impact.leaves.length && impact.counts.removed === 0;
}

/**
 * What the paper's live rubric does to each of its gradings: the score recomputed from the verdicts
 * that stand when only weights (or places) changed, else the range the leaves to grade allow. Lists
 * the gradings whose score moves or that need verdicts; writes nothing.
 */
export async function listRubricConsequences(store: Store, paperId: string): Promise<RubricConsequences> {
  const db = store.db;
  const rubric = await getRubricByPaperId(db, paperId);
  if (!rubric) return { revision: 0, gradings: [], unaffected: 0 };
  const cache = new ImpactCache(await getLiveNodeRows(db, rubric.id));
  const out: GradingConsequence[] = [];
  let unaffected = 0;
  for (const grading of await listGradingsByPaperId(db, paperId)) {
    const consequence = await consequenceOf(db, cache, grading);
    if (consequence) out.push(consequence);
    else unaffected++;
  }
  return { revision: rubric.revision, gradings: out, unaffected };
}

/** One grading's consequence, or null when the live rubric leaves its score where it is. */
export async function consequenceOf(
  db: Executor,
  cache: ImpactCache,
  grading: GradingListItem,
): Promise<GradingConsequence | null> {
  const impact = await cache.impact(db, grading);
  if (!impact || changesNothing(impact)) return null;
  const projected = projectScore(
    impact,
    cache.view(currentViewOf(grading)),
    await listVerdicts(db, grading.id),
    await listOverrideScores(db, grading.id),
  );
  if (projected.score !== null && Object.is(projected.score, grading.score)) return null;
  const run = await getJudgeRunStateByGradingId(db, grading.id);
  return {
    gradingId: grading.id,
    submissionId: grading.submissionId,
    agentName: grading.agentName,
    runIndex: grading.runIndex,
    variant: grading.variant,
    kind: grading.kind,
    rubricVersionId: grading.rubricVersionId,
    rubricRevision: grading.rubricRevision,
    score: grading.score,
    newScore: projected.score,
    minScore: projected.min,
    maxScore: projected.max,
    counts: impact.counts,
    leavesToGrade: impact.toGrade.length,
    busy: run?.jobStatus ? !isFinalJobStatus(run.jobStatus) : false,
  };
}
