/**
 * What the review page receives and sends (`GET /api/gradings/<id>`, `POST …/scores`): the pinned
 * rubric's nodes, each leaf's verdict as this viewer may see it, and the review marks. Pure types;
 * shared by the route handlers and the browser.
 */
import type { GradingProvenance } from "@/lib/evaluations/provenance";
import type { Variant } from "@/lib/grading/variant";
import type { JobStatus } from "@/lib/jobs/states";

/** Why a leaf's verdict is not sent to this viewer. */
export type HiddenReason =
  /** A blind assignment: the judge's verdict shows once this grader has committed a score. */
  | "blind"
  /** Outside the subtrees assigned to this grader. */
  | "scope";

/** A node of the pinned rubric version (in the graded view), in pre-order. */
export interface ReviewNode {
  key: string;
  parentKey: string | null;
  nodeId: string;
  requirements: string;
  weight: number;
  taskCategory: string | null;
  finegrainedTaskCategory: string | null;
}

export interface ReviewVerdict {
  score: number;
  valid: boolean;
  source: "judge" | "human" | "import";
}

/** One leaf as this viewer may see it. */
export interface ReviewLeaf {
  key: string;
  /** Null when hidden from this viewer (`hidden` says why). */
  verdict: ReviewVerdict | null;
  /** The latest override's score; null when none, or hidden. */
  override: number | null;
  hidden: HiddenReason | null;
  /** How many review marks the leaf has (by anyone); 0 when hidden. */
  reviews: number;
  /** This viewer's latest committed score on the leaf, or null. */
  mine: number | null;
  /** Reviewers' "unsure" flags on the leaf, oldest first; of a leaf hidden from this viewer, only their own. */
  unsure: ReviewUnsureFlag[];
}

/** A reviewer skipped the leaf as unsure, with a note; it stays unreviewed until they score it or the flag is cleared. */
export interface ReviewUnsureFlag {
  userId: string;
  user: { name: string | null; email: string };
  note: string;
  createdAt: string;
}

export interface ReviewAssignment {
  id: string;
  /** The assigned subtrees (node keys of the pinned version); null: the whole grading. */
  nodeKeys: string[] | null;
  blind: boolean;
}

export interface ReviewGradingSummary {
  id: string;
  paperId: string;
  paperTitle: string;
  agentName: string;
  runIndex: number;
  variant: Variant;
  kind: "judge" | "human";
  judgeModel: string | null;
  /** How the grading was made: judge, mode, configuration, prompts, policies (`lib/evaluations/provenance.ts`). */
  provenance: GradingProvenance;
  rubricVersionName: string;
  submissionId: string;
  /** When every leaf had been reviewed (a review mark on each), or null. */
  reviewedAt: string | null;
  /** The studio's judge run that fills this grading, if it made it: the page refreshes while it runs. */
  judgeRun?: { id: string; status: JobStatus } | null;
}

export interface ReviewPayload {
  grading: ReviewGradingSummary;
  viewer: {
    userId: string;
    role: "staff" | "author" | "grader";
    /** May commit scores (staff, and graders on their assigned leaves). */
    canReview: boolean;
    /** May assign graders (staff). */
    canAssign: boolean;
    assignment: ReviewAssignment | null;
  };
  nodes: ReviewNode[];
  leaves: ReviewLeaf[];
  /** The effective root score; null when some leaf is hidden from this viewer. */
  rootScore: number | null;
}

/** One override of a leaf, as the leaf panel's history shows it. */
export interface ReviewOverrideItem {
  id: string;
  oldScore: number;
  newScore: number;
  reason: string;
  createdAt: string;
  user: { name: string | null; email: string } | null;
}

/** One review mark: someone committed a score on a leaf (a confirmation or an override). */
export interface ReviewMarkItem {
  id: string;
  score: number;
  /** The override this review appended, or null when it confirmed the score it saw. */
  overrideId: string | null;
  blind: boolean;
  timeSpentMs: number;
  createdAt: string;
  user: { name: string | null; email: string } | null;
}

/** `GET /api/gradings/<id>/leaves/<key>`: what the leaf panel shows beyond the tree. */
export interface ReviewLeafDetail {
  key: string;
  hidden: HiddenReason | null;
  /** The judge's (or the imported grading's) verdict; null when hidden. */
  verdict: (ReviewVerdict & { explanation: string; judgeMetadata: unknown }) | null;
  overrides: ReviewOverrideItem[];
  reviews: ReviewMarkItem[];
}

/** `POST /api/gradings/<id>/scores`: a committed score. */
export interface ReviewCommitResult {
  review: ReviewMarkItem;
  override: ReviewOverrideItem | null;
  /** The leaf as this viewer now sees it (a blind leaf is revealed by the commit). */
  leaf: ReviewLeaf;
  /** The effective root score after the commit; null when some leaf is still hidden from this viewer. */
  rootScore: number | null;
  reviewedAt: string | null;
}
