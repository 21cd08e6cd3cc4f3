import "server-only";
import { inArray, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { submissions } from "../schema";
import type { Variant } from "@/lib/grading/variant";
import type { JudgeEvalCandidate } from "@/lib/judge/eval/types";

/** JudgeEval's reads: per submission, its latest human, latest judge and latest reviewed judge gradings. */

interface JudgeEvalCandidateSqlRow extends Record<string, unknown> {
  id: string;
  paper_id: string;
  title: string;
  agent_id: string;
  agent_name: string;
  run_index: number;
  variant: Variant;
  /** The latest human grading, the latest judge grading and the judge grading reviewed last (by `reviewed_at`). */
  human_id: string | null;
  judge_id: string | null;
  judge_model: string | null;
  judge_type: string | null;
  reviewed_id: string | null;
  reviewed_model: string | null;
  reviewed_type: string | null;
}

/**
 * A submission's pair (the rule in `server/judge/eval/candidates.ts`): its latest human grading and
 * latest judge grading when it has both, else the judge grading reviewed last against itself.
 */
function toJudgeEvalCandidate(r: JudgeEvalCandidateSqlRow): JudgeEvalCandidate {
  const base = {
    submissionId: r.id,
    paperId: r.paper_id,
    paperTitle: r.title,
    agentId: r.agent_id,
    agentName: r.agent_name,
    runIndex: r.run_index,
    variant: r.variant,
  };
  if (r.human_id !== null && r.judge_id !== null) {
    return {
      ...base,
      truth: "human_grading",
      humanGradingId: r.human_id,
      judgeGradingId: r.judge_id,
      judgeModel: r.judge_model,
      judgeType: r.judge_type,
    };
  }
  // The query's WHERE keeps only rows with both, or with a reviewed grading.
  const reviewedId = r.reviewed_id!;
  return {
    ...base,
    truth: "review",
    humanGradingId: reviewedId,
    judgeGradingId: reviewedId,
    judgeModel: r.reviewed_model,
    judgeType: r.reviewed_type,
  };
}

/**
 * The submissions with a human grading and a judge grading, or a reviewed judge grading, by
 * paper, agent, variant and run. Only papers in `paperIds` when given.
 */
export async function listJudgeEvalCandidateRows(
  db: Executor,
  opts: { paperIds?: readonly string[] | null } = {},
): Promise<JudgeEvalCandidate[]> {
  if (opts.paperIds && opts.paperIds.length === 0) return [];
  const result = await db.execute<JudgeEvalCandidateSqlRow>(sql`
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
  return result.rows.map(toJudgeEvalCandidate);
}

/** The papers of these submissions. */
export async function listPaperIdsOfSubmissions(db: Executor, submissionIds: readonly string[]): Promise<string[]> {
  if (submissionIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ paperId: submissions.paperId })
    .from(submissions)
    .where(inArray(submissions.id, [...submissionIds]));
  return rows.map((r) => r.paperId);
}
