import "server-only";
import type { Executor } from "@/db/client";
import {
  listJudgeEvalCandidateRows,
  listPaperIdsOfSubmissions,
  type JudgeEvalCandidateRow,
} from "@/db/queries/judge-eval";
import { AppError } from "@/lib/errors";
import type { JudgeEvalCandidate } from "@/lib/judge/eval/types";

/**
 * JudgeEval over the studio's gradings: for a submission with a human truth and a judge grading,
 * PaperBench's metrics leaf by leaf (`lib/judge/eval/metrics.ts`), pooled over any set of
 * submissions.
 *
 * The pair of a submission:
 * - when it has an imported human grading (`kind = 'human'`): its latest human grading (with any
 *   overrides) is the truth, and its latest judge grading (the one the leaderboard counts, its
 *   verdicts as the judge gave them) is compared;
 * - else, when a review covered every leaf of one of its judge gradings (`reviewed_at`): that
 *   grading's effective scores (the reviewer's overrides applied) are the truth and its own
 *   verdicts are compared, the latest such review first.
 */

/** The pair of a submission's row (see above): an imported human grading first, else a complete review. */
function toCandidate(r: JudgeEvalCandidateRow): JudgeEvalCandidate {
  const base = {
    submissionId: r.submissionId,
    paperId: r.paperId,
    paperTitle: r.paperTitle,
    agentId: r.agentId,
    agentName: r.agentName,
    runIndex: r.runIndex,
    variant: r.variant,
  };
  if (r.humanId && r.judgeId) {
    return {
      ...base,
      truth: "human_grading",
      humanGradingId: r.humanId,
      judgeGradingId: r.judgeId,
      judgeModel: r.judgeModel,
      judgeType: r.judgeType,
    };
  }
  return {
    ...base,
    truth: "review",
    humanGradingId: String(r.reviewedId),
    judgeGradingId: String(r.reviewedId),
    judgeModel: r.reviewedModel,
    judgeType: r.reviewedType,
  };
}

/**
 * The submissions with a human truth and a judge grading, by paper, agent, variant and run. Only
 * papers in `paperIds` when given.
 */
export async function listJudgeEvalCandidates(
  store: { db: Executor },
  opts: { paperIds?: readonly string[] | null } = {},
): Promise<JudgeEvalCandidate[]> {
  return (await listJudgeEvalCandidateRows(store.db, opts)).map(toCandidate);
}

/** The candidates of these submissions (in the order given); 404 naming a submission that has no pair. */
export async function getJudgeEvalCandidates(
  store: { db: Executor },
  submissionIds: readonly string[],
): Promise<JudgeEvalCandidate[]> {
  if (submissionIds.length === 0) return [];
  const paperIds = await listPaperIdsOfSubmissions(store.db, submissionIds);
  const byId = new Map((await listJudgeEvalCandidates(store, { paperIds })).map((c) => [c.submissionId, c]));
  return submissionIds.map((id, i) => {
    const candidate = byId.get(id);
    if (!candidate) {
      throw new AppError(
        "not_found",
        `Submission ${id} has no human grading (or complete review) and judge grading to compare`,
        [{ path: `submissionIds[${i}]`, message: "has no pair of a human and a judge grading" }],
      );
    }
    return candidate;
  });
}
