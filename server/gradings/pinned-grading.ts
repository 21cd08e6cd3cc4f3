import "server-only";
import type { Executor } from "@/db/client";
import { getRubricVersionRows } from "@/db/queries/gradings";
import {
  listLeafScoreRows,
  listOverrideScores,
  listVerdictStates,
  listVerdicts,
  type LeafScoreRow,
} from "@/db/queries/grading-verdicts";
import type { Grading } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { LruMap } from "@/lib/lru";
import { effectiveLeafScore } from "@/lib/grading/effective-score";
import { buildPinnedGradedTree, pinnedGradingScores, viewRows, type PinnedGradedTree } from "@/lib/grading/pinned-tree";
import type { GradingScores } from "@/lib/grading/recompute";
import type { NodeRow } from "@/lib/rubric/tree-rows";

/**
 * Reads of a grading against the rubric version it pinned. Helpers of the grading and review
 * services: they take an `Executor`, so a service may call them inside its transaction.
 */

async function readVersionRows(
  db: Executor,
  grading: Pick<Grading, "rubricVersionId" | "rubricView">,
): Promise<readonly NodeRow[]> {
  const rows = await getRubricVersionRows(db, grading.rubricVersionId);
  if (!rows) throw new AppError("not_found", "The grading's rubric version is gone");
  return viewRows(rows, grading.rubricView);
}

/**
 * Pinned rows by version and view. A version's snapshot never changes once written, so the rows
 * read for one request serve the next (reading and parsing pinn's snapshot is most of a review
 * page's server time). Never handed out for changing.
 */
const pinnedRowsCache = new LruMap<string, readonly NodeRow[]>(16);

/** The rows of the pinned version in the view that was graded, in pre-order. */
export async function getGradingRows(
  db: Executor,
  grading: Pick<Grading, "rubricVersionId" | "rubricView">,
): Promise<readonly NodeRow[]> {
  const cacheKey = `${grading.rubricVersionId}/${grading.rubricView}`;
  const hit = pinnedRowsCache.get(cacheKey);
  if (hit) return hit;
  const rows = Object.freeze(await readVersionRows(db, grading));
  pinnedRowsCache.set(cacheKey, rows);
  return rows;
}

/** The graded tree of a grading: the pinned rubric version with its verdicts and overrides. */
export async function getPinnedGradedTree(
  db: Executor,
  grading: Pick<Grading, "id" | "rubricVersionId" | "rubricView">,
): Promise<PinnedGradedTree> {
  const rows = await getGradingRows(db, grading);
  const verdicts = await listVerdicts(db, grading.id);
  const overrides = await listOverrideScores(db, grading.id);
  return buildPinnedGradedTree(rows, verdicts, overrides);
}

/**
 * The grading's scores as `getPinnedGradedTree` gives them, read and computed without the verdicts'
 * texts: a judge run recomputes its root score every second and an override on every commit, and
 * reading every explanation and judge response for that was most of a judge worker's reads.
 */
export async function getPinnedGradingScores(
  db: Executor,
  grading: Pick<Grading, "id" | "rubricVersionId" | "rubricView">,
): Promise<GradingScores> {
  const rows = await getGradingRows(db, grading);
  const verdicts = await listVerdictStates(db, grading.id);
  const overrides = await listOverrideScores(db, grading.id);
  return pinnedGradingScores(rows, verdicts, overrides);
}

export interface EffectiveLeafScore extends LeafScoreRow {
  /** What the leaf counts: the latest override, else the verdict (0 when the verdict is invalid). */
  effectiveScore: number;
}

/** Each leaf's effective score: its latest override, else its verdict. */
export async function listEffectiveLeafScores(db: Executor, gradingId: string): Promise<EffectiveLeafScore[]> {
  const rows = await listLeafScoreRows(db, gradingId);
  return rows.map((r) => ({
    ...r,
    effectiveScore: effectiveLeafScore(r.overrideScore, { score: r.verdictScore, valid: r.valid }),
  }));
}
