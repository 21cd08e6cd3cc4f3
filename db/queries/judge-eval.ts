import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import type { SubmissionVariant } from "../schema";

/** JudgeEval's reads: per submission, its latest human, latest judge and latest reviewed judge gradings. */

export interface JudgeEvalCandidateRow {
  submissionId: string;
  paperId: string;
  paperTitle: string;
  agentId: string;
  agentName: string;
  runIndex: number;
  variant: SubmissionVariant;
  /** The latest human grading, the latest judge grading and the judge grading reviewed last (by `reviewed_at`). */
  humanId: string | null;
  judgeId: string | null;
  judgeModel: string | null;
  judgeType: string | null;
  reviewedId: string | null;
  reviewedModel: string | null;
  reviewedType: string | null;
}

/**
 * The submissions with a human grading and a judge grading, or a reviewed judge grading, by
 * paper, agent, variant and run. Only papers in `paperIds` when given.
 */
export async function listJudgeEvalCandidateRows(
  db: Executor,
  opts: { paperIds?: readonly string[] | null } = {},
): Promise<JudgeEvalCandidateRow[]> {
  if (opts.paperIds && opts.paperIds.length === 0) return [];
  const result = await db.execute(sql`
    WITH h AS (
      SELECT DISTINCT ON (submission_id) submission_id, id
      FROM gradings WHERE kind = 'human'
      ORDER BY submission_id, created_at DESC, id DESC
    ), j AS (
      SELECT DISTINCT ON (submission_id) submission_id, id, judge_model, judge_type
      FROM gradings WHERE kind = 'judge' AND NOT is_lab
      ORDER BY submission_id, created_at DESC, id DESC
    ), r AS (
      SELECT DISTINCT ON (submission_id) submission_id, id, judge_model, judge_type
      FROM gradings WHERE kind = 'judge' AND reviewed_at IS NOT NULL AND NOT is_lab
      ORDER BY submission_id, reviewed_at DESC, id DESC
    )
    SELECT s.id, s.paper_id, p.title, s.agent_id, a.name AS agent_name, s.run_index, s.variant,
      h.id AS human_id, j.id AS judge_id, j.judge_model, j.judge_type,
      r.id AS reviewed_id, r.judge_model AS reviewed_model, r.judge_type AS reviewed_type
    FROM submissions s
    JOIN agents a ON a.id = s.agent_id
    JOIN papers p ON p.id = s.paper_id
    LEFT JOIN h ON h.submission_id = s.id
    LEFT JOIN j ON j.submission_id = s.id
    LEFT JOIN r ON r.submission_id = s.id
    WHERE ((h.id IS NOT NULL AND j.id IS NOT NULL) OR r.id IS NOT NULL)
      ${opts.paperIds ? sql`AND s.paper_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(opts.paperIds)}::jsonb))` : sql``}
    ORDER BY s.paper_id, a.name, s.variant, s.run_index
  `);
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    submissionId: String(r.id),
    paperId: String(r.paper_id),
    paperTitle: String(r.title),
    agentId: String(r.agent_id),
    agentName: String(r.agent_name),
    runIndex: Number(r.run_index),
    variant: r.variant as SubmissionVariant,
    humanId: text(r.human_id),
    judgeId: text(r.judge_id),
    judgeModel: (r.judge_model as string | null) ?? null,
    judgeType: (r.judge_type as string | null) ?? null,
    reviewedId: text(r.reviewed_id),
    reviewedModel: (r.reviewed_model as string | null) ?? null,
    reviewedType: (r.reviewed_type as string | null) ?? null,
  }));
}

/** The papers of these submissions. */
export async function listPaperIdsOfSubmissions(db: Executor, submissionIds: readonly string[]): Promise<string[]> {
  const result = await db.execute(
    sql`SELECT DISTINCT paper_id FROM submissions WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(submissionIds)}::jsonb)::uuid)`,
  );
  return (result.rows as { paper_id: string }[]).map((r) => r.paper_id);
}
