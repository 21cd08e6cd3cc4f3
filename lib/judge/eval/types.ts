/**
 * JudgeEval of the studio's gradings as the API and the page give it (see `server/judge/eval/`).
 * Shared by the server and the browser.
 */
import type { ExcludedLeaf, JudgeEvalGroup } from "./metrics";
import type { Variant } from "@/lib/grading/variant";

export type JudgeEvalTruth = "human_grading" | "review";

/** A submission JudgeEval can compare, and the gradings it compares. */
export interface JudgeEvalCandidate {
  submissionId: string;
  paperId: string;
  paperTitle: string;
  agentId: string;
  agentName: string;
  runIndex: number;
  variant: Variant;
  truth: JudgeEvalTruth;
  /** The human grading, or the reviewed judge grading (`truth = 'review'`). */
  humanGradingId: string;
  judgeGradingId: string;
  judgeModel: string | null;
  judgeType: string | null;
}

/** How many disagreements a report lists (the count says how many there are). */
export const DISAGREEMENTS_SHOWN = 500;

export interface JudgeEvalDisagreement {
  submissionId: string;
  paperId: string;
  agentName: string;
  runIndex: number;
  judgeGradingId: string;
  /** The leaf's key in the judge grading's pinned rubric (for the review page). */
  nodeKey: string;
  nodeId: string;
  path: string;
  requirements: string;
  category: string;
  human: 0 | 1;
  judge: 0 | 1;
  /** The leaf's effective share of the judge grading's final score. */
  share: number;
}

export interface JudgeEvalPairSummary extends Omit<JudgeEvalGroup, "stratifiedConfusion"> {
  candidate: JudgeEvalCandidate;
  disagreements: number;
  excluded: number;
}

export interface JudgeEvalStudioReport extends JudgeEvalGroup {
  pairs: JudgeEvalPairSummary[];
  /** The first `DISAGREEMENTS_SHOWN` disagreements, the largest effective share first. */
  disagreements: JudgeEvalDisagreement[];
  disagreementCount: number;
  /** Leaves left out, by reason (invalid judge leaves, invalid human leaves, leaves the human tree lacks). */
  excluded: Record<ExcludedLeaf["reason"], number>;
  /** Submissions that could not be compared (a score other than 0 or 1), with why. */
  skipped: { candidate: JudgeEvalCandidate; message: string }[];
}
