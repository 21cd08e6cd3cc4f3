import "server-only";
import type { Store } from "@/db/client";
import { countLeafReviews, insertReviewMark, markGradingReviewedWhenComplete } from "@/db/queries/grading-reviews";
import { getLatestOverrideScore, getVerdictState } from "@/db/queries/grading-verdicts";
import { lockGradingById, type GradingListItem } from "@/db/queries/gradings";
import { deleteUnsureFlag } from "@/db/queries/grading-unsure-flags";
import { getUserById } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { effectiveLeafScore } from "@/lib/grading/effective-score";
import type { ReviewCommitResult, ReviewLeaf, ReviewOverrideItem } from "@/lib/review/types";
import {
  hiddenReason,
  leafKeysOf,
  maySeeAggregate,
  SEE_EVERYTHING,
  type LeafVisibility,
} from "@/lib/review/visibility";
import { appendOverride } from "@/server/gradings/override-leaf-score";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import { announceNotifications } from "@/server/notifications/notify";
import { notifyReviewFinished } from "./notify-review-finished";
import { leafUnsureFlags } from "./unsure-flags";
import { toMarkItem, toOverrideItem } from "./review-payload";

export interface CommitReviewScoreInput {
  grading: GradingListItem;
  nodeKey: string;
  userId: string;
  score: number;
  reason: string;
  timeSpentMs: number;
  /** What the user may see of the grading before this commit. */
  visibility: LeafVisibility;
}

export const BLIND_REVIEW_REASON = "Blind review: scored without seeing the verdict";
export const INVALID_VERDICT_REASON = "Scored a leaf the judge could not grade";

/**
 * A grader's (or staff member's) score on one leaf, in one transaction: a review mark, and when
 * the score differs from the leaf's effective score (or the verdict was invalid) an override,
 * which recomputes the grading's root. Changing a score needs a reason, except where the grader
 * could not see what they changed: a blind score that differs becomes an override marked "Blind
 * review" (its reason says so, with the grader's own words when they gave some), and any score
 * fixes an invalid verdict. When the commit completes a review of every
 * leaf, the grading's `reviewed_at` is set. Answers with the leaf as the user now sees it (a blind
 * leaf's verdict is revealed) and the root score, null while some verdict stays hidden from them.
 */
export async function commitReviewScore(store: Store, input: CommitReviewScoreInput): Promise<ReviewCommitResult> {
  const hidden = hiddenReason(input.nodeKey, input.visibility);
  if (hidden === "scope")
    throw new AppError("forbidden", "This leaf is not in the part of the grading assigned to you");
  const reason = input.reason.trim();
  const outcome = await store.db.transaction(async (tx) => {
    const grading = await lockGradingById(tx, input.grading.id);
    if (!grading) throw new AppError("not_found", "No such grading");
    const verdict = await getVerdictState(tx, grading.id, input.nodeKey);
    if (!verdict)
      throw new AppError("bad_request", "nodeKey: is not a graded leaf of this grading", [
        { path: "nodeKey", message: "is not a graded leaf of this grading" },
      ]);
    const latest = await getLatestOverrideScore(tx, grading.id, input.nodeKey);
    const effective = effectiveLeafScore(latest, verdict);
    const invalidUnfixed = !verdict.valid && latest === null;
    // A blind grader scored without the verdict: asking them why they differ from what they could
    // not see makes no sense, so their differing score overrides at once, marked as a blind review.
    const overrides = input.score !== effective || invalidUnfixed;
    let override: ReviewOverrideItem | null = null;
    let score = grading.score;
    const who = await getUserById(tx, input.userId);
    const author = { userName: who?.name ?? null, userEmail: who?.email ?? null };
    if (overrides) {
      const why = reason || (invalidUnfixed ? INVALID_VERDICT_REASON : "");
      if (!why && hidden !== "blind")
        throw new AppError("bad_request", "reason: is required to change a score", [
          { path: "reason", message: "is required to change a score" },
        ]);
      const overrideReason = hidden === "blind" ? (why ? `${BLIND_REVIEW_REASON}. ${why}` : BLIND_REVIEW_REASON) : why;
      // The grading is locked and the leaf's effective score known: append, without reading them again.
      const added = await appendOverride(tx, grading, {
        gradingId: grading.id,
        nodeKey: input.nodeKey,
        userId: input.userId,
        score: input.score,
        reason: overrideReason,
        oldScore: effective,
      });
      score = added.score;
      override = toOverrideItem({ ...added.override, ...author });
    }
    const mark = await insertReviewMark(tx, {
      gradingId: grading.id,
      nodeKey: input.nodeKey,
      userId: input.userId,
      score: input.score,
      overrideId: override?.id ?? null,
      blind: hidden === "blind",
      timeSpentMs: input.timeSpentMs,
    });
    // A score settles the committer's own doubt: their "unsure" flag on the leaf goes.
    await deleteUnsureFlag(tx, { gradingId: grading.id, nodeKey: input.nodeKey, userId: input.userId });
    // A review that covered every leaf: the grading counts as reviewed by people from now on.
    const reviewedAt = await markGradingReviewedWhenComplete(tx, grading.id);
    const notified = await notifyReviewFinished(tx, {
      actorId: input.userId,
      grading,
      paperId: input.grading.paperId,
      nodeKey: input.nodeKey,
    });
    const leaf: ReviewLeaf = {
      key: input.nodeKey,
      verdict: { score: verdict.score, valid: verdict.valid, source: verdict.source },
      override: override ? input.score : latest,
      hidden: null,
      reviews: (await countLeafReviews(tx, grading.id, input.nodeKey)) ?? 1,
      mine: input.score,
      unsure: await leafUnsureFlags(tx, grading.id, input.nodeKey, input.userId, SEE_EVERYTHING),
    };
    return { review: toMarkItem({ ...mark, ...author }), override, leaf, score, reviewedAt, notified };
  });
  await announceNotifications(store, outcome.notified);
  // The root score shows once no leaf is hidden from this user any more (the review payload's rule, over the same leaves).
  const v = input.visibility;
  const after = { ...v, committed: new Set([...v.committed, input.nodeKey]) };
  const seesRoot = maySeeAggregate(leafKeysOf(await getGradingRows(store.db, input.grading)), after);
  return {
    review: outcome.review,
    override: outcome.override,
    leaf: outcome.leaf,
    rootScore: seesRoot ? outcome.score : null,
    reviewedAt: outcome.reviewedAt?.toISOString() ?? null,
  };
}
