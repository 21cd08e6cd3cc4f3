import "server-only";
import type { Executor } from "@/db/client";
import { getGradingById } from "@/db/queries/gradings";
import { resourcesProvidedScore } from "@/lib/grading/resources-provided";
import { getPinnedGradedTree } from "@/server/gradings/pinned-grading";

/**
 * A grading's root score under PaperBench's resources-provided setting: its pinned graded tree
 * with every override applied, the "Dataset and Model Acquisition" leaves weighing 0, recomputed
 * by the one aggregation. Null when the grading is gone.
 */
export async function readResourcesProvidedScore(
  db: Executor,
  gradingId: string,
): Promise<{ score: number; zeroedLeaves: number } | null> {
  const grading = await getGradingById(db, gradingId);
  if (!grading) return null;
  const pinned = await getPinnedGradedTree(db, grading);
  return resourcesProvidedScore(pinned.scores.toTree());
}
