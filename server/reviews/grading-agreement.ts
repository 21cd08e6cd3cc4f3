import "server-only";
import type { Store } from "@/db/client";
import { listLatestScoresByReviewer } from "@/db/queries/grading-reviews";
import { listVerdictStates } from "@/db/queries/grading-verdicts";
import type { GradingListItem } from "@/db/queries/gradings";
import {
  raterPairAgreements,
  VERDICT_RATER,
  type GradingAgreement,
  type GradingRater,
  type RaterScore,
} from "@/lib/review/rater-agreement";
import { getGradingRows } from "@/server/gradings/pinned-grading";

/**
 * Who agrees with whom on a grading's leaves: its verdicts (the judge's, or an imported grading's)
 * and every person's latest score on each leaf they reviewed (`lib/review/rater-agreement.ts`).
 */
export async function readGradingAgreement(store: Store, grading: GradingListItem): Promise<GradingAgreement> {
  const { db } = store;
  const categoryOf = new Map((await getGradingRows(db, grading)).map((r) => [r.key, r.taskCategory]));
  const scores: RaterScore[] = [];
  let verdicts = 0;
  for (const v of await listVerdictStates(db, grading.id)) {
    // An invalid verdict says nothing of the leaf: it is no rating.
    if (!v.valid || !categoryOf.has(v.nodeKey)) continue;
    scores.push({ rater: VERDICT_RATER, leaf: v.nodeKey, score: v.score, category: categoryOf.get(v.nodeKey) ?? null });
    verdicts++;
  }
  const people = new Map<string, GradingRater>();
  for (const m of await listLatestScoresByReviewer(db, grading.id)) {
    if (!categoryOf.has(m.nodeKey)) continue;
    scores.push({ rater: m.userId, leaf: m.nodeKey, score: m.score, category: categoryOf.get(m.nodeKey) ?? null });
    const rater = people.get(m.userId) ?? {
      id: m.userId,
      label: m.userName ?? m.userEmail,
      kind: "person" as const,
      leaves: 0,
    };
    rater.leaves++;
    people.set(m.userId, rater);
  }
  const raters: GradingRater[] = [
    {
      id: VERDICT_RATER,
      label: grading.kind === "human" ? "Imported grading" : "Judge",
      kind: "verdict",
      leaves: verdicts,
    },
    ...people.values(),
  ];
  return {
    raters,
    pairs: raterPairAgreements(
      scores,
      raters.map((r) => r.id),
    ),
  };
}
