import "server-only";
import type { Store } from "@/db/client";
import { announceLive, followRubric } from "@/server/live/rubric-feed";

/**
 * An evaluation on the live feed: `evaluation:<id>` is announced after any cell of it changed (a
 * job queued, started or ended, a judge run's progress at most once a second, a grading done, a
 * retry), always after the change committed; the matrix's stream follows it.
 */
const evaluationTopic = (evaluationId: string) => `evaluation:${evaluationId}`;

export async function announceEvaluationChanged(store: Store, evaluationId: string): Promise<void> {
  await announceLive(store, evaluationTopic(evaluationId), { type: "evaluation" });
}

const lastProgress = new Map<string, number>();
/** A judge run stores a verdict per leaf: its evaluation hears of it at most once a second. */
export async function announceEvaluationProgress(store: Store, evaluationId: string): Promise<void> {
  const now = Date.now();
  if (now - (lastProgress.get(evaluationId) ?? 0) < 1_000) return;
  lastProgress.set(evaluationId, now);
  if (lastProgress.size > 1_000) lastProgress.clear();
  await announceEvaluationChanged(store, evaluationId);
}

export function followEvaluation(
  evaluationId: string,
  listener: () => void,
  opts: { databaseUrl?: string } = {},
): Promise<() => void> {
  return followRubric(evaluationTopic(evaluationId), listener, opts);
}
