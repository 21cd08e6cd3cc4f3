import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { GradingProvenance } from "@/lib/evaluations/provenance";
import type { Executor } from "../client";
import {
  agents,
  evaluations,
  gradingAssignments,
  gradings,
  paperMembers,
  submissions,
  type Evaluation,
  type GradingKind,
  type PaperRole,
  type SubmissionVariant,
} from "../schema";

/** The leaderboard's reads: the stamp of the gradings, a variant's counted gradings, agents, papers. */

/**
 * What has to change for the board to change: gradings added, removed, re-scored (overrides keep
 * `gradings.score` up to date) or reviewed, overrides appended, agents or papers renamed or
 * removed, blind assignments made, changed or taken back, and a blind grader's commits (one may
 * close a blind review, publishing the grading's score); for the rows computed from evaluations,
 * the evaluations (policies, aggregation, setup), which submissions they hold, their reproductions'
 * jobs ending, judge runs' verdict counts (invalid leaves change a cell's state) and the review
 * marks on sampled leaves (agreement). Cheap: a scan of gradings' few columns and of small tables
 * (the commits through the blind graders' and the samples' grading index).
 */
export async function getLeaderboardStamp(db: Executor): Promise<string> {
  const result = await db.execute<{ stamp: string }>(sql`
    SELECT concat_ws('|',
      g.n, g.latest, g.total, g.reviewed, g.latest_review,
      (SELECT coalesce(max(seq), 0) FROM grading_overrides),
      (SELECT count(*) FROM submissions),
      (SELECT md5(coalesce(string_agg(id::text || name || coalesce(model, '') || coalesce(scaffold, ''), ',' ORDER BY id), '')) FROM agents),
      (SELECT md5(coalesce(string_agg(id || ':' || title, ',' ORDER BY id), '')) FROM papers),
      (SELECT md5(coalesce(string_agg(id::text || ':' || updated_at::text, ',' ORDER BY id), '')) FROM grading_assignments WHERE blind),
      (SELECT coalesce(max(r.seq), 0) FROM grading_assignments a
        JOIN grading_reviews r ON r.grading_id = a.grading_id AND r.user_id = a.user_id WHERE a.blind),
      (SELECT count(evaluation_id) FROM submissions),
      (SELECT md5(coalesce(string_agg(id::text || name || runs || variant || policies::text || aggregation || setup::text
        || is_human::text || resources_provided::text || paper_ids::text, ',' ORDER BY id), '')) FROM evaluations),
      (SELECT count(*) || ':' || count(j.finished_at) FROM jobs j JOIN submissions s ON s.id = j.submission_id
        WHERE s.evaluation_id IS NOT NULL AND j.kind = 'reproduce'),
      (SELECT count(*) || ':' || coalesce(sum(leaves_done), 0) || ':' || coalesce(sum(leaves_invalid), 0) FROM judge_runs),
      (SELECT count(*) FROM grading_review_samples),
      (SELECT coalesce(max(r.seq), 0) FROM grading_review_samples s JOIN grading_reviews r ON r.grading_id = s.grading_id)
    ) AS stamp
    FROM (
      SELECT count(*) || ':' || count(*) FILTER (WHERE judge_placeholder) AS n, max(created_at) AS latest, sum(score) AS total,
        count(reviewed_at) AS reviewed, max(reviewed_at) AS latest_review
      FROM gradings
    ) g
  `);
  return result.rows[0].stamp;
}

/** One counted grading: an agent's run on one paper. */
export interface LeaderboardGradingRow {
  agentId: string;
  runIndex: number;
  paperId: string;
  gradingId: string;
  kind: GradingKind;
  score: number;
  judgeModel: string | null;
  reviewed: boolean;
  createdMs: number;
  /** Graded by a placeholder judge (Dummy, Random): members only, never in a public figure. */
  placeholder: boolean;
  /** How it was made (migration 0021); null for a row older than it that the backfill missed. */
  provenance: GradingProvenance | null;
}

interface LeaderboardGradingSqlRow extends Record<string, unknown> {
  agent_id: string;
  run_index: number;
  paper_id: string;
  grading_id: string;
  kind: GradingKind;
  score: number;
  judge_model: string | null;
  judge_placeholder: boolean;
  provenance: GradingProvenance | null;
  reviewed: boolean;
  created_ms: number;
}

function toLeaderboardGradingRow(r: LeaderboardGradingSqlRow): LeaderboardGradingRow {
  return {
    agentId: r.agent_id,
    runIndex: r.run_index,
    paperId: r.paper_id,
    gradingId: r.grading_id,
    kind: r.kind,
    score: r.score,
    judgeModel: r.judge_model,
    reviewed: r.reviewed,
    createdMs: r.created_ms,
    placeholder: r.judge_placeholder,
    provenance: r.provenance,
  };
}

/**
 * Per submission of the variant, the grading that counts: its latest judge grading, else its
 * latest human grading (judge-lab gradings never count); `reviewed` when it is a human grading or a review covered every leaf.
 * `publicOnly`: as if no placeholder judge (Dummy, Random) had graded anything (the public board).
 */
export async function listCountedGradings(
  db: Executor,
  variant: SubmissionVariant,
  opts: { publicOnly?: boolean } = {},
): Promise<LeaderboardGradingRow[]> {
  const counted = await db.execute<LeaderboardGradingSqlRow>(sql`
    SELECT DISTINCT ON (g.submission_id)
      s.agent_id, s.run_index, s.paper_id, g.id AS grading_id, g.kind, g.score, g.judge_model, g.judge_placeholder, g.provenance,
      (g.kind = 'human' OR g.reviewed_at IS NOT NULL) AS reviewed,
      (extract(epoch FROM g.created_at) * 1000)::float8 AS created_ms
    FROM gradings g
    JOIN submissions s ON s.id = g.submission_id
    WHERE s.variant = ${variant} AND NOT g.is_lab ${opts.publicOnly ? sql`AND NOT g.judge_placeholder` : sql``}
    ORDER BY g.submission_id, (g.kind = 'judge') DESC, g.created_at DESC, g.id DESC
  `);
  return counted.rows.map(toLeaderboardGradingRow);
}

export interface LeaderboardAgentInfo {
  id: string;
  name: string;
  model: string | null;
  scaffold: string | null;
  /** Synthetic: an agent of the demo seed. */
  isDemo: boolean;
}

export async function listLeaderboardAgents(db: Executor): Promise<LeaderboardAgentInfo[]> {
  return db
    .select({ id: agents.id, name: agents.name, model: agents.model, scaffold: agents.scaffold, isDemo: agents.isDemo })
    .from(agents);
}

/** Every paper with its title, and whether it has a grading of any variant (`gradedPublic`: by other than a placeholder judge). */
export async function listLeaderboardPapers(
  db: Executor,
): Promise<{ id: string; title: string; graded: boolean; gradedPublic: boolean }[]> {
  const result = await db.execute<{ id: string; title: string; graded: boolean; graded_public: boolean }>(sql`
    SELECT p.id, p.title,
      EXISTS (SELECT 1 FROM submissions s JOIN gradings g ON g.submission_id = s.id WHERE s.paper_id = p.id) AS graded,
      EXISTS (SELECT 1 FROM submissions s JOIN gradings g ON g.submission_id = s.id WHERE s.paper_id = p.id AND NOT g.judge_placeholder) AS graded_public
    FROM papers p
  `);
  return result.rows.map((r) => ({ id: r.id, title: r.title, graded: r.graded, gradedPublic: r.graded_public }));
}

/** The papers a user is a member of, with the role on each. */
export async function listPaperRolesForUser(db: Executor, userId: string): Promise<Map<string, PaperRole>> {
  const rows = await db
    .select({ paperId: paperMembers.paperId, role: paperMembers.role })
    .from(paperMembers)
    .where(eq(paperMembers.userId, userId))
    .orderBy(paperMembers.paperId);
  return new Map(rows.map((r) => [r.paperId, r.role]));
}

/** The blind assignments on gradings of a variant, with the rubric version each grading pinned. */
export async function listBlindAssignments(
  db: Executor,
  variant: SubmissionVariant,
): Promise<
  {
    gradingId: string;
    userId: string;
    nodeKeys: string[] | null;
    rubricVersionId: string;
    rubricView: SubmissionVariant;
  }[]
> {
  return db
    .select({
      gradingId: gradingAssignments.gradingId,
      userId: gradingAssignments.userId,
      nodeKeys: gradingAssignments.nodeKeys,
      rubricVersionId: gradings.rubricVersionId,
      rubricView: gradings.rubricView,
    })
    .from(gradingAssignments)
    .innerJoin(gradings, eq(gradings.id, gradingAssignments.gradingId))
    .innerJoin(submissions, eq(submissions.id, gradings.submissionId))
    .where(and(eq(gradingAssignments.blind, true), eq(submissions.variant, variant)));
}

/** An evaluation the board may compute a row from (`server/leaderboard/evaluation-rows.ts`). */
export interface LeaderboardEvaluation {
  id: string;
  name: string;
  agentId: string;
  paperIds: string[];
  runs: number;
  policies: Evaluation["policies"];
  aggregation: Evaluation["aggregation"];
  setup: Evaluation["setup"];
  resourcesProvided: boolean;
  isHuman: boolean;
  createdMs: number;
}

/** The evaluations of a variant, newest first. */
export async function listLeaderboardEvaluations(
  db: Executor,
  variant: SubmissionVariant,
): Promise<LeaderboardEvaluation[]> {
  const rows = await db
    .select()
    .from(evaluations)
    .where(eq(evaluations.variant, variant))
    .orderBy(desc(evaluations.createdAt), desc(evaluations.id));
  return rows.map((e) => ({
    id: e.id,
    name: e.name,
    agentId: e.agentId,
    paperIds: e.paperIds,
    runs: e.runs,
    policies: e.policies,
    aggregation: e.aggregation,
    setup: e.setup,
    resourcesProvided: e.resourcesProvided,
    isHuman: e.isHuman,
    createdMs: e.createdAt.getTime(),
  }));
}
