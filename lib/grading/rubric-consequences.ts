/**
 * The contract of a rubric change's consequences (`GET/POST /api/papers/<id>/rubric/consequences`):
 * per grading of the paper, what the live rubric does to its score, and the re-grade request.
 * Pure; shared by the route, the service and the panel.
 */
import { z } from "zod";
import type { LeafChange } from "./affected-leaves";
import type { Variant } from "./variant";

export interface GradingConsequence {
  gradingId: string;
  submissionId: string;
  agentName: string;
  runIndex: number;
  variant: Variant;
  kind: "judge" | "human";
  /** The version it is pinned to now, and its revision. */
  rubricVersionId: string;
  rubricRevision: number;
  /** Its effective root score now. */
  score: number;
  /** The root score under the live rubric when no leaf needs a verdict, else null (see min/max). */
  newScore: number | null;
  /** The new score's range: the leaves to grade all failing, all passing. */
  minScore: number;
  maxScore: number;
  counts: Record<LeafChange | "removed", number>;
  /** Leaves that need a verdict (changed and added). */
  leavesToGrade: number;
  /** A judge run of the grading is still queued or running: re-grade it once it ends. */
  busy: boolean;
}

export interface RubricConsequences {
  /** The live rubric's revision the gradings were compared with. */
  revision: number;
  /** Gradings whose score moves or which need verdicts; the rest stand as they are. */
  gradings: GradingConsequence[];
  /** Gradings of the paper that the change leaves as they are. */
  unaffected: number;
}

export interface RegradeResult {
  gradingId: string;
  /** `recomputed`: re-pinned, the score follows from the kept verdicts; `judging`: a judge run grades the leaves left; `review`: a human grading's leaves wait for review. */
  outcome: "recomputed" | "judging" | "review";
  score: number;
  leavesToGrade: number;
  judgeRunId: string | null;
}

/** `POST …/rubric/consequences`: the gradings to re-grade (as listed), optionally the judge configuration for judge gradings. */
export const regradeRequestSchema = z.object({
  gradingIds: z
    .array(z.uuid("must be a grading id"))
    .min(1, "must name at least one grading")
    .max(500, "must name at most 500 gradings"),
  configId: z.uuid("must be a judge configuration id").nullable().optional(),
});
export type RegradeRequest = z.output<typeof regradeRequestSchema>;
