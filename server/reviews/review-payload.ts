import "server-only";
import { getJudgeRunStateByGradingId } from "@/db/queries/judge-runs";
import type { Store } from "@/db/client";
import { listLeafReviewCounts, listLeafReviews, type LeafReviewRow } from "@/db/queries/grading-reviews";
import {
  getVerdictDetail,
  listLatestOverrideScores,
  listLeafOverrides,
  listVerdictStates,
  type LeafOverrideRow,
  type VerdictState,
} from "@/db/queries/grading-verdicts";
import { getGradingReviewState, type GradingListItem } from "@/db/queries/gradings";
import { getPaperById } from "@/db/queries/papers";
import { toUserRef } from "@/db/queries/users";
import type { GradingAssignment } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type {
  ReviewLeaf,
  ReviewLeafDetail,
  ReviewMarkItem,
  ReviewNode,
  ReviewOverrideItem,
  ReviewPayload,
  ReviewUnsureFlag,
} from "@/lib/review/types";
import {
  hiddenReason,
  leafKeysOf,
  maySeeAggregate,
  visibleUnsureFlags,
  type LeafVisibility,
} from "@/lib/review/visibility";
import { getGradingRows } from "@/server/gradings/pinned-grading";
import type { NodeRow } from "@/lib/rubric/tree-rows";
import { fallbackProvenance } from "@/lib/evaluations/provenance";
import { getLeafVisibility } from "@/server/gradings/leaf-visibility";
import { unsureFlagsByLeaf } from "./unsure-flags";
import { judgeRunStatus } from "@/lib/judge/views";

interface LeafStates {
  overrideOf: Map<string, number>;
  reviewsOf: Map<string, { n: number; mine: number | null }>;
  unsureOf: Map<string, ReviewUnsureFlag[]>;
}

function toReviewLeaf(v: VerdictState, states: LeafStates, visibility: LeafVisibility, viewerId: string): ReviewLeaf {
  const hidden = hiddenReason(v.nodeKey, visibility);
  const reviews = states.reviewsOf.get(v.nodeKey);
  const unsure = visibleUnsureFlags(states.unsureOf.get(v.nodeKey) ?? [], hidden, viewerId);
  if (hidden)
    return { key: v.nodeKey, verdict: null, override: null, hidden, reviews: 0, mine: reviews?.mine ?? null, unsure };
  return {
    key: v.nodeKey,
    verdict: { score: v.score, valid: v.valid, source: v.source },
    override: states.overrideOf.get(v.nodeKey) ?? null,
    hidden: null,
    reviews: reviews?.n ?? 0,
    mine: reviews?.mine ?? null,
    unsure,
  };
}

export interface ReviewViewer {
  userId: string;
  role: ReviewPayload["viewer"]["role"];
  assignment: GradingAssignment | null;
}

/**
 * Everything the review page shows of a grading, as this viewer may see it: the pinned nodes,
 * each leaf's verdict (hidden outside a grader's assignment and, when blind, until they commit),
 * latest overrides and review marks, and the effective root score (null when some leaf is hidden:
 * `maySeeAggregate`). No other aggregate is sent (the page computes a node's score from the leaves
 * it shows), and nothing of the imported file's own root score.
 * Explanations and judge responses are left out: the leaf panel asks for one leaf at a time.
 *
 * Answered as JSON text: the nodes are the pinned version's, the same for every viewer and every
 * grading of that version, so their JSON (most of the answer: 1.3 MB for pinn) is made once per
 * version (`nodesJson`) and only the rest is serialized per request.
 */
export async function getReviewPayloadJson(
  store: Store,
  grading: GradingListItem,
  viewer: ReviewViewer,
): Promise<string> {
  const { rows, payload } = await reviewPayloadWithoutNodes(store, grading, viewer);
  const rest = JSON.stringify(payload);
  return `${rest.slice(0, -1)},"nodes":${nodesJson(rows)}}`;
}

/** The nodes' JSON by the pinned rows it was made from (the same array while `getGradingRows` keeps it). */
const nodesJsonOf = new WeakMap<readonly NodeRow[], string>();

function nodesJson(rows: readonly NodeRow[]): string {
  let json = nodesJsonOf.get(rows);
  if (json === undefined) {
    const nodes: ReviewNode[] = rows.map((r) => ({
      key: r.key,
      parentKey: r.parentKey,
      nodeId: r.nodeId,
      requirements: r.requirements,
      weight: r.weight,
      taskCategory: r.taskCategory,
      finegrainedTaskCategory: r.finegrainedTaskCategory,
    }));
    nodesJsonOf.set(rows, (json = JSON.stringify(nodes)));
  }
  return json;
}

async function reviewPayloadWithoutNodes(
  store: Store,
  grading: GradingListItem,
  viewer: ReviewViewer,
): Promise<{ rows: readonly NodeRow[]; payload: Omit<ReviewPayload, "nodes"> }> {
  const { db } = store;
  const rows = await getGradingRows(db, grading);
  const paper = await getPaperById(db, grading.paperId);
  // `score`: the effective root, kept up to date in the transaction of every override.
  const meta = await getGradingReviewState(db, grading.id);
  const verdicts = await listVerdictStates(db, grading.id);
  const states: LeafStates = {
    overrideOf: await listLatestOverrideScores(db, grading.id),
    reviewsOf: await listLeafReviewCounts(db, grading.id, viewer.userId),
    unsureOf: await unsureFlagsByLeaf(db, grading.id),
  };
  const visibility = await getLeafVisibility(db, {
    gradingId: grading.id,
    userId: viewer.userId,
    role: viewer.role,
    assignment: viewer.assignment,
    rows: async () => rows,
  });
  const verdictOf = new Map(verdicts.map((v) => [v.nodeKey, v]));
  const leaves: ReviewLeaf[] = [];
  const leafKeys = leafKeysOf(rows);
  for (const key of leafKeys) {
    const v = verdictOf.get(key);
    // A leaf nobody graded (no verdict): PaperBench's default, score 0 and not valid.
    const leaf = toReviewLeaf(
      v ?? { nodeKey: key, score: 0, valid: false, source: "judge" },
      states,
      visibility,
      viewer.userId,
    );
    if (!v && leaf.verdict) leaf.verdict = null;
    leaves.push(leaf);
  }
  const a = viewer.assignment;
  const judgeRun = await getJudgeRunStateByGradingId(db, grading.id);
  const payload: Omit<ReviewPayload, "nodes"> = {
    grading: {
      id: grading.id,
      paperId: grading.paperId,
      paperTitle: paper?.title ?? grading.paperId,
      agentName: grading.agentName,
      runIndex: grading.runIndex,
      variant: grading.variant,
      kind: grading.kind,
      judgeModel: grading.judgeModel,
      provenance:
        grading.provenance ??
        fallbackProvenance({ kind: grading.kind, judgeType: grading.judgeType, judgeModel: grading.judgeModel }),
      rubricVersionName: grading.rubricVersionName,
      submissionId: grading.submissionId,
      reviewedAt: meta?.reviewedAt?.toISOString() ?? null,
      judgeRun: judgeRun ? { id: judgeRun.id, status: judgeRunStatus(judgeRun.jobStatus) } : null,
    },
    viewer: {
      userId: viewer.userId,
      role: viewer.role,
      canReview: viewer.role === "staff" || viewer.role === "grader",
      canAssign: viewer.role === "staff",
      assignment: a ? { id: a.id, nodeKeys: a.nodeKeys, blind: a.blind } : null,
    },
    leaves,
    rootScore: maySeeAggregate(leafKeys, visibility) ? (meta?.score ?? grading.score) : null,
  };
  return { rows, payload };
}

export function toOverrideItem(
  r: Omit<LeafOverrideRow, "userName" | "userEmail"> & { userName: string | null; userEmail: string | null },
): ReviewOverrideItem {
  return {
    id: r.id,
    oldScore: r.oldScore,
    newScore: r.newScore,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    user: toUserRef(r.userName, r.userEmail),
  };
}

export function toMarkItem(r: LeafReviewRow): ReviewMarkItem {
  return {
    id: r.id,
    score: r.score,
    overrideId: r.overrideId,
    blind: r.blind,
    timeSpentMs: r.timeSpentMs,
    createdAt: r.createdAt.toISOString(),
    user: toUserRef(r.userName, r.userEmail),
  };
}

/** One leaf for the leaf panel: the verdict with its explanation and judge response, and its history. */
export async function getReviewLeafDetail(
  store: Store,
  gradingId: string,
  nodeKey: string,
  visibility: LeafVisibility,
): Promise<ReviewLeafDetail> {
  const { db } = store;
  const v = await getVerdictDetail(db, gradingId, nodeKey);
  if (!v) throw new AppError("not_found", "No graded leaf with this key in the grading");
  const hidden = hiddenReason(nodeKey, visibility);
  if (hidden) return { key: nodeKey, hidden, verdict: null, overrides: [], reviews: [] };
  const overrides = await listLeafOverrides(db, gradingId, nodeKey);
  const reviews = await listLeafReviews(db, gradingId, nodeKey);
  return {
    key: nodeKey,
    hidden: null,
    verdict: { ...v, judgeMetadata: v.judgeMetadata ?? null },
    overrides: overrides.map(toOverrideItem),
    reviews: reviews.map(toMarkItem),
  };
}
